import { DeviceLimits, type IccidImportReport } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, sysLogOf } from './helper.js';
import { addUser, body, countRows, expectLogged, tenant, uniqueIccid, type Api } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

function upload(
  api: Api,
  payload: string | Buffer,
  query = 'fileName=sims.txt',
  contentType = 'text/plain; charset=utf-8',
) {
  return api.inject({
    method: 'POST',
    url: `/api/UserInfo/ImportICCID?${query}`,
    headers: { 'content-type': contentType },
    payload,
  });
}

async function inventory(E_ID: number): Promise<{ ICCID: string; UserID: number | null }[]> {
  return t.db.selectFrom('device').select(['ICCID', 'UserID']).where('E_ID', '=', E_ID).orderBy('D_ID').execute();
}

describe('POST /api/UserInfo/ImportICCID', () => {
  it('adds each new ICCID to the inventory, unmapped, and reports per line; logged with the file name', async () => {
    const a = await tenant(t);
    const [one, two] = [uniqueIccid(19), uniqueIccid(20)];
    const report = body<IccidImportReport>(await upload(a.api, `${one}\n${two.toLowerCase()}\n`));
    expect(report).toEqual({
      fileName: 'sims.txt',
      lines: 2,
      blank: 0,
      accepted: 2,
      duplicateCount: 0,
      invalidCount: 0,
      duplicates: [],
      invalid: [],
    });
    expect(await inventory(a.E_ID)).toEqual([
      { ICCID: one, UserID: null },
      { ICCID: two, UserID: null },
    ]);
    const log = await expectLogged(t, a.E_ID, 'iccid_import', 'sims.txt');
    expect(JSON.parse(log.Summary)).toMatchObject({ lines: 2, accepted: 2, duplicates: 0, invalid: 0 });
  });

  it('handles blank lines, surrounding spaces and tabs, CRLF, lone CR and a BOM', async () => {
    const a = await tenant(t);
    const ids = [uniqueIccid(), uniqueIccid(), uniqueIccid(), uniqueIccid()];
    const text = `\uFEFF${ids[0]}\r\n\r\n   ${ids[1]}  \r\n\t${ids[2]}\t\r   \n${ids[3]}`;
    const report = body<IccidImportReport>(await upload(a.api, text));
    expect(report).toMatchObject({ lines: 6, blank: 2, accepted: 4, duplicateCount: 0, invalidCount: 0 });
    expect((await inventory(a.E_ID)).map((d) => d.ICCID)).toEqual(ids);
  });

  it('reports duplicates inside the file (with the first line) and against the database', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const inStock = uniqueIccid();
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: inStock }));
    const elsewhere = uniqueIccid();
    expectSuccess(await b.api.post('/api/Device/Save', { ICCID: elsewhere }));
    const onUser = (await addUser(b.api, { ICCID: uniqueIccid(20) })).ICCID as string;
    const fresh = uniqueIccid();
    const text = [fresh, inStock, ` ${fresh} `, elsewhere, onUser, fresh.toLowerCase()].join('\n');
    const report = body<IccidImportReport>(await upload(a.api, text));
    expect(report).toMatchObject({ lines: 6, accepted: 1, duplicateCount: 5, invalidCount: 0 });
    expect(report.duplicates).toEqual([
      { line: 2, ICCID: inStock, reason: 'exists' },
      { line: 3, ICCID: fresh, reason: 'file', firstLine: 1 },
      { line: 4, ICCID: elsewhere, reason: 'exists' },
      { line: 5, ICCID: onUser, reason: 'exists' },
      { line: 6, ICCID: fresh, reason: 'file', firstLine: 1 },
    ]);
    expect((await inventory(a.E_ID)).map((d) => d.ICCID)).toEqual([inStock, fresh]);
  });

  it('reports invalid lines with their line number and why (18 and 21 characters, other characters)', async () => {
    const a = await tenant(t);
    const good = [uniqueIccid(19), uniqueIccid(20)];
    const lines = [good[0], '8'.repeat(18), '8'.repeat(21), '8986-001234567890123', good[1], 'x'.repeat(100)];
    const report = body<IccidImportReport>(await upload(a.api, lines.join('\r\n')));
    expect(report).toMatchObject({ lines: 6, accepted: 2, invalidCount: 4, duplicateCount: 0 });
    expect(report.invalid).toEqual([
      { line: 2, value: '8'.repeat(18), key: 'user.iccid_length' },
      { line: 3, value: '8'.repeat(21), key: 'user.iccid_length' },
      { line: 4, value: '8986-001234567890123', key: 'user.iccid_invalid' },
      { line: 6, value: 'x'.repeat(64), key: 'user.iccid_length' },
    ]);
  });

  it('imports 1,000 lines with 3 bad ones, listing at most 1,000 problems with exact counts', async () => {
    const a = await tenant(t);
    const lines = Array.from({ length: 1000 }, (_, i) => (i % 400 === 7 ? 'bad line' : uniqueIccid()));
    const report = body<IccidImportReport>(await upload(a.api, lines.join('\n')));
    expect(report).toMatchObject({ lines: 1000, accepted: 997, invalidCount: 3 });
    expect(report.invalid.map((r) => r.line)).toEqual([8, 408, 808]);
    const many = body<IccidImportReport>(await upload(a.api, Array.from({ length: 1005 }, () => 'bad').join('\n')));
    expect(many.invalidCount).toBe(1005);
    expect(many.invalid).toHaveLength(DeviceLimits.importReportMax);
  });

  it('refuses a file that is not UTF-8 and changes nothing (4000 device.file_encoding)', async () => {
    const a = await tenant(t);
    const gbk = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x0a]); // "中文" in GBK
    const withValid = Buffer.concat([Buffer.from(`${uniqueIccid()}\n`), gbk, Buffer.from(`${uniqueIccid()}\n`)]);
    const res = await upload(a.api, withValid);
    expect(expectFailure(res, 400, 4000, 'device.file_encoding').Data).toEqual([
      { field: 'file', key: 'device.file_encoding' },
    ]);
    expectFailure(await upload(a.api, Buffer.from([0xff, 0xfe, 0x38, 0x00])), 400, 4000, 'device.file_encoding');
    expect(await countRows(t, 'device', a.E_ID)).toBe(0);
    expect((await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'iccid_import')).toEqual([]);
  });

  it('accepts a file of exactly the size limit and refuses one byte more, changing nothing (device.file_too_large)', async () => {
    const a = await tenant(t);
    const iccid = uniqueIccid();
    const atLimit = `${iccid}${' '.repeat(DeviceLimits.importMaxBytes - iccid.length)}`;
    expect(Buffer.byteLength(atLimit)).toBe(DeviceLimits.importMaxBytes);
    const over = `${uniqueIccid()}\n${' '.repeat(DeviceLimits.importMaxBytes)}`;
    expectFailure(await upload(a.api, over), 400, 4000, 'device.file_too_large');
    expectFailure(
      await upload(a.api, `${uniqueIccid()}\n${' '.repeat(3 * DeviceLimits.importMaxBytes)}`),
      400,
      4000,
      'device.file_too_large',
    );
    expect(await countRows(t, 'device', a.E_ID)).toBe(0);
    expect(body<IccidImportReport>(await upload(a.api, atLimit)).accepted).toBe(1);
  });

  it('refuses more lines than allowed (device.file_too_many_lines), changing nothing', async () => {
    const a = await tenant(t);
    const text = `${uniqueIccid()}\n${'\n'.repeat(DeviceLimits.importMaxLines)}`;
    expectFailure(await upload(a.api, text), 400, 4000, 'device.file_too_many_lines');
    expect(await countRows(t, 'device', a.E_ID)).toBe(0);
  });

  it('accepts an empty file (nothing to do) and refuses a JSON body (4000)', async () => {
    const a = await tenant(t);
    expect(body<IccidImportReport>(await upload(a.api, ''))).toMatchObject({ lines: 0, accepted: 0 });
    expectFailure(
      await a.api.postJson('/api/UserInfo/ImportICCID?fileName=x.txt', { lines: [uniqueIccid()] }),
      400,
      4000,
    );
  });

  it('imports into a sub-enterprise of the scope with E_ID; another enterprise is 4004', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const other = await tenant(t);
    const iccid = uniqueIccid();
    expect(body<IccidImportReport>(await upload(parent.api, iccid, `fileName=a.txt&E_ID=${child.E_ID}`)).accepted).toBe(
      1,
    );
    expect(await inventory(child.E_ID)).toEqual([{ ICCID: iccid, UserID: null }]);
    expectFailure(await upload(parent.api, uniqueIccid(), `fileName=a.txt&E_ID=${other.E_ID}`), 404, 4004);
    expect(await countRows(t, 'device', other.E_ID)).toBe(0);
  });

  it('is open to editors (devices are day-to-day work)', async () => {
    const e = await tenant(t, { role: 'editor' });
    expect(body<IccidImportReport>(await upload(e.api, uniqueIccid())).accepted).toBe(1);
  });
});
