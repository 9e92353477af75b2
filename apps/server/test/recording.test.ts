import type { RecordingRow } from '@intercom/contract';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectFailure, expectSuccess } from './helper.js';
import { colleague, insertUsers, org, rows, saveChannel, type Org } from './channelFixtures.js';
import { oggOpus } from './mediaFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();
let a: Org;
let b: Org;
let file: Buffer;
let recordingId: number;

/** A recording row and, unless `write` is false, its Ogg Opus file under DATA_DIR/recordings. */
async function addRecording(
  E_ID: number,
  fields: {
    CID?: number | null;
    U_ID?: number | null;
    ToU_ID?: number | null;
    RType?: string;
    StartAt?: number;
    FilePath?: string;
  },
  bytes: Buffer | false = file,
): Promise<number> {
  const FilePath = fields.FilePath ?? `${E_ID}/${Date.now()}-${Math.random().toString(16).slice(2)}.ogg`;
  if (bytes) {
    const target = path.join(t.deps.config.dataDir, 'recordings', FilePath);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
  const row = await t.db
    .insertInto('recording')
    .values({
      E_ID,
      CID: fields.CID ?? null,
      U_ID: fields.U_ID ?? null,
      ToU_ID: fields.ToU_ID ?? null,
      RType: fields.RType ?? 'group',
      StartAt: fields.StartAt ?? Date.now(),
      Duration: 1000,
      FilePath,
      Size: bytes ? bytes.length : 0,
    })
    .returning('R_ID')
    .executeTakeFirstOrThrow();
  return Number(row.R_ID);
}

beforeAll(async () => {
  a = await org(t);
  b = await org(t);
  file = oggOpus(200);
  recordingId = await addRecording(a.E_ID, {});
});

function get(url: string, range?: string, who: Org = a) {
  return who.api.inject({ method: 'GET', url, headers: range === undefined ? {} : { range } });
}

describe('GET /api/Media/Recording/{id}', () => {
  it('serves the whole Ogg Opus file as audio/ogg and says it accepts ranges', async () => {
    expect(file.subarray(0, 4).toString()).toBe('OggS');
    const res = await get(`/api/Media/Recording/${recordingId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/ogg');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['content-length'])).toBe(file.length);
    expect(res.rawPayload.equals(file)).toBe(true);
    const download = await get(`/api/Media/Recording/${recordingId}?download=1`);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="recording-${recordingId}.ogg"`);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, -1],
    ['bytes=-50', -50, -1],
    ['bytes=1000-999999999', 1000, -1],
    ['bytes=-999999999', 0, -1],
  ])('answers %s with 206 and the right slice', async (range, start, end) => {
    const size = file.length;
    const first = start < 0 ? size + start : start;
    const last = end < 0 ? size - 1 : end;
    const res = await get(`/api/Media/Recording/${recordingId}`, range);
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${first}-${last}/${size}`);
    expect(Number(res.headers['content-length'])).toBe(last - first + 1);
    expect(res.rawPayload.equals(file.subarray(first, last + 1))).toBe(true);
  });

  it.each(['bytes=999999-', 'bytes=50-10', 'bytes=abc', 'bytes=-0', 'bytes=-'])(
    'answers %s with 416 and the size',
    async (range) => {
      const res = await get(`/api/Media/Recording/${recordingId}`, range);
      expect(res.statusCode).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${file.length}`);
      expect(res.json()).toEqual({ BaseResult: { Code: 4000, Message: 'media.bad_range' } });
    },
  );

  it('ignores other units and several ranges (the whole file)', async () => {
    for (const range of ['items=0-1', 'bytes=0-1,5-9']) {
      const res = await get(`/api/Media/Recording/${recordingId}`, range);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(file.length);
    }
  });

  it("is 4004 for another enterprise's recording, an unknown id, a missing file and a path leaving the directory", async () => {
    expectFailure(await get(`/api/Media/Recording/${recordingId}`, undefined, b), 404, 4004, 'error.not_found');
    expectFailure(await get(`/api/Media/Recording/${recordingId}`, 'bytes=0-10', b), 404, 4004);
    expectFailure(await get('/api/Media/Recording/987654321'), 404, 4004, 'error.not_found');
    const gone = await addRecording(a.E_ID, {}, false);
    expectFailure(await get(`/api/Media/Recording/${gone}`), 404, 4004, 'recording.file_missing');
    fs.writeFileSync(path.join(t.deps.config.dataDir, 'outside.ogg'), file);
    const escaping = await addRecording(a.E_ID, { FilePath: '../outside.ogg' }, false);
    expectFailure(await get(`/api/Media/Recording/${escaping}`), 404, 4004, 'recording.file_missing');
  });

  it('needs a token', async () => {
    expectFailure(await call(t.app, { method: 'GET', url: `/api/Media/Recording/${recordingId}` }), 401, 50008);
  });
});

describe('play URLs for <audio>', () => {
  it('RecordingUrl hands out a URL that plays with ranges and no token, until the session ends', async () => {
    const listener = await colleague(t, a, 'editor');
    const { url, expiresAt } = expectSuccess(await listener.api.get(`/api/Media/RecordingUrl/${recordingId}`))
      .BaseData as {
      url: string;
      expiresAt: number;
    };
    expect(url).toMatch(/^\/api\/Media\/Play\/\d+\.\d+\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBeGreaterThan(Date.now());
    const whole = await call(t.app, { method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/ogg');
    const part = await call(t.app, { method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(file.subarray(10, 20))).toBe(true);
    const tampered = url.replace(/\/Play\/(\d+)\./, (_m, id: string) => `/Play/${Number(id) + 1}.`);
    expectFailure(await call(t.app, { method: 'GET', url: tampered }), 403, 4003, 'media.ticket_invalid');
    expectFailure(await call(t.app, { method: 'GET', url: '/api/Media/Play/garbage' }), 403, 4003);
    expectSuccess(await listener.api.post('/api/Account/Logout'));
    expectFailure(await call(t.app, { method: 'GET', url }), 403, 4003, 'media.ticket_invalid');
  });

  it("is 4004 for another enterprise's recording", async () => {
    expectFailure(await b.api.get(`/api/Media/RecordingUrl/${recordingId}`), 404, 4004);
  });
});

describe('GET /api/Recording/QueryData and ExportData', () => {
  it('filters by type, time range, channel and speaker; names come along; scope holds', async () => {
    const e = await org(t);
    const [alice, bob] = await insertUsers(t, e.E_ID, 2, { name: (i) => ['Alice', 'Bob'][i] ?? 'x' });
    const channel = await saveChannel(e.api, { cname: 'Dispatch' });
    const base = Date.UTC(2026, 0, 10);
    await addRecording(e.E_ID, { CID: channel.CID, U_ID: alice, StartAt: base });
    await addRecording(e.E_ID, { CID: channel.CID, U_ID: bob, StartAt: base + 60_000 });
    await addRecording(e.E_ID, { RType: 'private', U_ID: alice, ToU_ID: bob, StartAt: base + 120_000 });
    await addRecording(e.E_ID, { CID: channel.CID, U_ID: alice, StartAt: base + 86_400_000 });
    const query = async (condition: object, extra = '') =>
      rows<RecordingRow>(
        await e.api.get(
          `/api/Recording/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify(condition))}${extra}`,
        ),
      );
    const all = await query({});
    expect(all.total).toBe(4);
    expect(all.rows[0]?.StartAt).toBe(base + 86_400_000);
    const group = await query({ RType: 'group', StartAt: { between: [base, base + 86_399_999] } });
    expect(group.rows.map((r) => [r.UserName, r.CName])).toEqual([
      ['Bob', 'Dispatch'],
      ['Alice', 'Dispatch'],
    ]);
    const privateCalls = await query({ RType: 'private' });
    expect(privateCalls.rows.map((r) => [r.UserName, r.ToUserName, r.CID])).toEqual([['Alice', 'Bob', null]]);
    expect((await query({ CID: channel.CID })).total).toBe(3);
    expect((await query({ U_ID: bob })).total).toBe(1);
    expect((await query({ Search: 'ali' })).total).toBe(3);
    expect((await query({}, '&orderField=StartAt&desc=false')).rows[0]?.StartAt).toBe(base);
    expectFailure(
      await e.api.get(`/api/Recording/QueryData?jsonCondition=${encodeURIComponent('{"FilePath":"x"}')}`),
      400,
      4000,
      'query.unknown_field',
    );
    const csv = await e.api.get('/api/Recording/ExportData');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')).toHaveLength(6);
    expect(csv.body).not.toContain('.ogg');
    const editor = await colleague(t, e, 'editor');
    expect(rows(await editor.api.get('/api/Recording/QueryData')).total).toBe(4);
    expect(rows(await b.api.get('/api/Recording/QueryData')).total).toBe(0);
  });
});
