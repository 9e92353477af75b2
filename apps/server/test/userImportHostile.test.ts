// postgres: hostile imports against the database's limits through the API.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { countRows, tenant, uniquePhone, type Tenant } from './directoryFixtures.js';
import { csv, report, sharedStringsXml, sheetXml, upload, workbookOf } from './userImportFixtures.js';
import { useTestApp } from './useTestApp.js';
import { deflated, workbookParts, zipOf } from './zipWriter.js';

/**
 * Issue 48: the hostile files of the report, built here at a small scale against lowered budgets
 * (an inflate budget of 2 MB, 1,000 shared strings of 1 MB in all). Each is refused, or answered
 * with only what it may hold; no file is left in the temp folder on any path; the server answers
 * afterwards. bench/importHostile.ts runs them at full size against the built server.
 */

const MB = 1024 * 1024;
const t = useTestApp({
  env: { IMPORT_MAX_INFLATED_MB: '2', IMPORT_MAX_SHARED_STRINGS: '1000', IMPORT_MAX_SHARED_STRINGS_MB: '1' },
});
let a: Tenant;
/** A temp folder of this file's own: TMPDIR while the tests run, so anything written there is seen. */
let tmp: string;
let savedTmp: string | undefined;

beforeAll(async () => {
  a = await tenant(t, { quota: 10_000 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-import-tmp-'));
  savedTmp = process.env.TMPDIR;
  // Read by os.tmpdir() at each call, and copied into a worker's environment when it starts.
  process.env.TMPDIR = tmp;
});
afterAll(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/**
 * What is in the temp folder. `tsx-*` is left out: the TypeScript loader the test run starts the
 * import worker with keeps its cache there; the built server has no such loader.
 */
const leftInTmp = () => fs.readdirSync(tmp).filter((name) => !name.startsWith('tsx-'));

async function refused(content: Buffer | string, key: string, fileName = 'hostile.xlsx') {
  const res = await upload(a.api, content, 'dryRun=true', { fileName });
  const body = expectFailure(res, 400, 4000, key);
  expect(body.Data).toEqual([{ field: 'file', key }]);
}

/** After each hostile file: nothing in the temp folder, and the server still answers. */
async function stillServing() {
  expect(leftInTmp()).toEqual([]);
  expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  const phone = uniquePhone();
  const answer = report(await upload(a.api, csv([{ UserName: `ok ${phone}`, MobilePhone: phone }]), 'dryRun=true'));
  expect(answer).toMatchObject({ total: 1, valid: 1, created: 1, errors: [] });
}

const header = ['UserName', 'MobilePhone'];
/** Padding elements of about `bytes` (never one long run of text), which a reader skips. */
const padding = (bytes: number) => `<x>${' '.repeat(1000)}</x>`.repeat(Math.ceil(bytes / 1007));

/** Sheet XML that inflates to about `bytes`, all of it before its rows. */
const paddedSheet = (bytes: number) =>
  `<?xml version="1.0"?><worksheet>${padding(bytes)}<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>MobilePhone</t></is></c></row></sheetData></worksheet>`;

describe('hostile import files (issue 48)', () => {
  it('the temp-folder check sees what exceljs leaves: its streaming reader stopped early keeps the sheet (positive control)', async () => {
    // The sheet before the shared strings, as Excel writes them (a fixed order: the template that
    // exceljs writes orders its parts as they finish, and its own reader fails on some orders).
    const phone = uniquePhone();
    const book = workbookOf(
      sheetXml([
        [{ s: 0 }, { s: 1 }],
        [`control ${phone}`, phone],
      ]),
      sharedStringsXml(header),
    );
    try {
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([book]), { worksheets: 'emit' });
      for await (const sheet of reader) {
        for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
          expect(row.number).toBe(1);
          break;
        }
        break;
      }
      expect(leftInTmp().length).toBeGreaterThan(0);
    } finally {
      // Whatever happened, the next tests start from an empty temp folder.
      for (const name of leftInTmp()) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
    }
    // The import reads the same file without writing anything.
    const dry = report(await upload(a.api, book, 'dryRun=true', { fileName: 'control.xlsx' }));
    expect(dry).toMatchObject({ total: 1, valid: 1 });
    expect(leftInTmp()).toEqual([]);
  });

  it('shared strings whose directory says 200 bytes but that inflate past the budget: zip_bomb, counted as they inflate', async () => {
    const strings = `<?xml version="1.0"?><sst>${padding(4 * MB)}</sst>`;
    const sheet = sheetXml([[{ s: 0 }, { s: 1 }]]);
    const bomb = workbookOf(sheet, strings, { strings: 200 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    await refused(bomb, 'userImport.zip_bomb');
    await stillServing();
  });

  it('a first sheet that lies about its size, before the shared strings in the zip: zip_bomb, nothing copied to disk', async () => {
    const bomb = workbookOf(paddedSheet(4 * MB), sharedStringsXml(header), { sheet: 200 });
    await refused(bomb, 'userImport.zip_bomb');
    await stillServing();
  });

  it('a second sheet of any size is never inflated: the first sheet is imported, nothing is left behind', async () => {
    const phone = uniquePhone();
    const sheet = sheetXml([header, [`second ${phone}`, phone]]);
    const file = zipOf([
      ...workbookParts(2),
      deflated('xl/worksheets/sheet1.xml', sheet),
      deflated('xl/worksheets/sheet2.xml', paddedSheet(8 * MB), 200),
    ]);
    const answer = report(await upload(a.api, file, 'dryRun=true', { fileName: 'two.xlsx' }));
    expect(answer).toMatchObject({ total: 1, valid: 1, created: 1, errors: [] });
    await stillServing();
  });

  it('an honest directory past the budget is refused before anything is inflated', async () => {
    const bomb = workbookOf(paddedSheet(3 * MB), sharedStringsXml(header));
    await refused(bomb, 'userImport.zip_bomb');
  });

  it('more shared strings than allowed, or more of their bytes: zip_bomb', async () => {
    const sheet = sheetXml([[{ s: 0 }, { s: 1 }]]);
    const many = Array.from({ length: 1001 }, (_, i) => `s${i}`);
    await refused(workbookOf(sheet, sharedStringsXml(many)), 'userImport.zip_bomb');
    const long = Array.from({ length: 600 }, (_, i) => `${i}${'y'.repeat(2000)}`);
    await refused(workbookOf(sheet, sharedStringsXml(long)), 'userImport.zip_bomb');
    await stillServing();
  });

  it('a cell in column XFD on every row (dimension A1:XFD): read as the template columns only, the far cells ignored', async () => {
    const rows = 2000;
    const phones = Array.from({ length: rows }, () => uniquePhone());
    const sheet = sheetXml(
      [
        [...header, { ref: 'J', text: 'Remark' }, { ref: 'XFD', text: 'Remark' }],
        ...phones.map((phone) => [`far ${phone}`, phone, { ref: 'XFD', text: 'far away' }]),
      ],
      `A1:XFD${rows + 1}`,
    );
    const answer = report(await upload(a.api, workbookOf(sheet), 'dryRun=true', { fileName: 'xfd.xlsx' }));
    expect(answer).toMatchObject({ total: rows, valid: rows, created: rows, errors: [] });
    expect(answer.preview?.[0]?.values).toEqual({ UserName: `far ${phones[0]}`, MobilePhone: phones[0] });
    await stillServing();
  });

  it('a cell reference of four letters or more is past any sheet: ignored', async () => {
    const phone = uniquePhone();
    const sheet = sheetXml([
      [...header, { ref: 'ZZZZZZ', text: 'Remark' }],
      [`ref ${phone}`, phone, { ref: 'ZZZZZZ', text: 'x' }],
    ]);
    const answer = report(await upload(a.api, workbookOf(sheet), 'dryRun=true', { fileName: 'ref.xlsx' }));
    expect(answer).toMatchObject({ total: 1, valid: 1, errors: [] });
  });

  it('a CSV of a million one-character rows stops at the row cap: too_many_rows', async () => {
    await refused(`MobilePhone\n${'1\n'.repeat(1_000_000)}`, 'userImport.too_many_rows', 'rows.csv');
    await stillServing();
  });

  it('a CSV row far wider than the template keeps the template columns only', async () => {
    const phone = uniquePhone();
    const wide = `UserName,MobilePhone${',Extra'.repeat(5000)}\r\nwide ${phone},${phone}${',x'.repeat(5000)}\r\n`;
    const answer = report(await upload(a.api, wide, 'dryRun=true'));
    expect(answer).toMatchObject({ total: 1, valid: 1, errors: [] });
    expect(answer.preview?.[0]?.values).toEqual({ UserName: `wide ${phone}`, MobilePhone: phone });
  });

  it('XML stretches longer than any workbook has (no "<" for over 1 MB) are unreadable', async () => {
    const sheet = `<worksheet><sheetData><row><c t="inlineStr"><is><t>${'z'.repeat(1.5 * MB)}</t></is></c></row></sheetData></worksheet>`;
    await refused(workbookOf(sheet), 'userImport.file_unreadable');
    await stillServing();
  });

  it('a file after a success, a refusal and the row cap leaves the temp folder as it was', async () => {
    const phone = uniquePhone();
    const book = workbookOf(sheetXml([header, [`tmp ${phone}`, phone]]));
    expect(report(await upload(a.api, book, '', { fileName: 'ok.xlsx' }))).toMatchObject({ created: 1 });
    await refused(workbookOf(sheetXml([['UserName']])), 'userImport.header_missing');
    const rows = '<row><c><v>1</v></c></row>'.repeat(20_001);
    const big = `<worksheet><sheetData><row><c t="inlineStr"><is><t>MobilePhone</t></is></c></row>${rows}</sheetData></worksheet>`;
    await refused(zipOf([deflated('xl/worksheets/sheet1.xml', big)]), 'userImport.too_many_rows');
    expect(leftInTmp()).toEqual([]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(1);
  });
});

describe('the import worker (issue 48)', () => {
  const small = useTestApp({ env: { IMPORT_WORKER_HEAP_MB: '32' } });

  it('a file that needs more memory than the worker may use ends the worker, not the server: file_too_complex', async () => {
    const b = await tenant(small, { quota: 100 });
    const cell = (i: number, j: number) => `${'x'.repeat(50)}${i}${j}`;
    const lines = [
      'UserName,MobilePhone,Password,ICCID,Department,UserType,Channels,Priority,Remark',
      ...Array.from({ length: 20_000 }, (_, i) => Array.from({ length: 9 }, (_, j) => cell(i, j)).join(',')),
    ];
    const res = await upload(b.api, lines.join('\n'), 'dryRun=true');
    expectFailure(res, 400, 4000, 'userImport.file_too_complex');
    expect((await small.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const phone = uniquePhone();
    const after = report(await upload(b.api, csv([{ UserName: `after ${phone}`, MobilePhone: phone }]), 'dryRun=true'));
    expect(after).toMatchObject({ valid: 1, errors: [] });
  });
});
