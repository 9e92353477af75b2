import { describe, expect, it } from 'vitest';
import { call } from '../helper.js';
import { FAST_TERMINALS, createTerminalUser, startTerminalApp } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// OsmAnd / Traccar Client over HTTP: /api/osmand (public) and the optional OSMAND_PORT listener.
const t = useTestApp(() => startTerminalApp({ ...FAST_TERMINALS, osmandPerMinute: 40 }));

const seconds = () => Math.floor(Date.now() / 1000);
const stored = async (U_ID: number) => {
  await t.terminals.service.writer.flush();
  return t.db.selectFrom('location_history').selectAll().where('U_ID', '=', U_ID).execute();
};
const osmand = (query: Record<string, string | number>, ip = '10.1.0.1') =>
  call(t.app, {
    method: 'GET',
    url: `/api/osmand?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    remoteAddress: ip,
  });

describe('OsmAnd', () => {
  it('stores a Traccar Client report given as query parameters (speed in knots, batt in %)', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const time = seconds();
    const res = await osmand({
      id: phone,
      lat: 22.55,
      lon: 114.06,
      timestamp: time,
      speed: 10,
      bearing: 45,
      altitude: 12,
      accuracy: 8,
      batt: 14,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await stored(U_ID);
    expect(row).toMatchObject({
      H_Time: time * 1000,
      C_Latitude: 22.55,
      C_Longitude: 114.06,
      Course: 45,
      Altitude: 12,
      Accuracy: 8,
    });
    expect(row?.Speed).toBeCloseTo(18.52, 2);
    expect(t.live.user(t.demo.E_ID, U_ID)).toMatchObject({ battery: 14, position: { lat: 22.55 } });
    await t.terminals.service.alarms.settle();
    const alarm = await t.db.selectFrom('notification').select('NType').where('U_ID', '=', U_ID).executeTakeFirst();
    expect(alarm?.NType).toBe('LowBattery');
  });

  it('takes a form POST, an ISO timestamp, a device code as id, and Traccar Client 9 JSON', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    await t.db
      .insertInto('device')
      .values({
        E_ID: t.demo.E_ID,
        DeviceCode: `dev-${phone}`,
        ICCID: `8986${phone}00`.slice(0, 20),
        NickName: '',
        Priority: 0,
        OSID: null,
        UType: 0,
        Remark: '',
        UserID: U_ID,
        CreatedAt: Date.now(),
      })
      .execute();
    const form = new URLSearchParams({
      id: `dev-${phone}`,
      lat: '22.5',
      lon: '114',
      timestamp: new Date(Date.now() - 60_000).toISOString(),
    });
    const posted = await call(t.app, {
      method: 'POST',
      url: '/api/osmand',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const json = await call(t.app, {
      method: 'POST',
      url: '/api/osmand',
      payload: {
        device_id: phone,
        location: {
          timestamp: new Date().toISOString(),
          coords: { latitude: 22.6, longitude: 114.1, speed: 5, heading: 10 },
          battery: { level: 0.8 },
        },
      },
    });
    expect(json.statusCode, json.body).toBe(200);
    const rows = await stored(U_ID);
    expect(rows.map((r) => r.C_Latitude).sort()).toEqual([22.5, 22.6]);
    expect(rows.find((r) => r.C_Latitude === 22.6)?.Speed).toBeCloseTo(18, 5);
  });

  it.each([
    ['id', { lat: 22, lon: 114 }, 'validation.required'],
    ['lat', { id: 'P', lon: 114 }, 'validation.required'],
    ['lat', { id: 'P', lat: 91, lon: 114 }, 'validation.invalid'],
    ['lon', { id: 'P', lat: 22, lon: 'NaN' }, 'validation.invalid'],
    ['lon', { id: 'P', lat: 22, lon: 181 }, 'validation.invalid'],
    ['timestamp', { id: 'P', lat: 22, lon: 114 }, 'validation.required'],
    ['timestamp', { id: 'P', lat: 22, lon: 114, timestamp: seconds() + 86_400 }, 'validation.out_of_range'],
    ['timestamp', { id: 'P', lat: 22, lon: 114, timestamp: 'yesterday-ish' }, 'validation.out_of_range'],
    ['timestamp', { id: 'P', lat: 22, lon: 114, timestamp: 12 }, 'validation.out_of_range'],
    ['speed', { id: 'P', lat: 22, lon: 114, speed: -1 }, 'validation.invalid'],
    ['batt', { id: 'P', lat: 22, lon: 114, batt: 140 }, 'validation.invalid'],
  ])('refuses a missing or absurd %s with 400 and stores nothing', async (field, query, key) => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const params = { timestamp: seconds(), ...query } as Record<string, string | number>;
    if (params.id === 'P') params.id = phone;
    if (field === 'timestamp' && !('timestamp' in query)) delete params.timestamp;
    const res = await osmand(params, `10.2.0.${U_ID % 250}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ BaseResult: { Code: 4000 }, Data: expect.arrayContaining([{ field, key }]) });
    expect(await stored(U_ID)).toHaveLength(0);
  });

  it('answers 404 for an unknown id and 403 for a frozen user', async () => {
    expect((await osmand({ id: 'nobody-here', lat: 1, lon: 1, timestamp: seconds() })).statusCode).toBe(404);
    const frozen = await createTerminalUser(t, { E_ID: t.demo.E_ID, IsLock: 1 });
    const res = await osmand({ id: frozen.phone, lat: 1, lon: 1, timestamp: seconds() });
    expect(res.statusCode).toBe(403);
    expect(await stored(frozen.U_ID)).toHaveLength(0);
  });

  it('limits requests per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++)
      statuses.push((await osmand({ id: 'nobody', lat: 1, lon: 1, timestamp: seconds() }, '10.9.9.9')).statusCode);
    expect(statuses.slice(0, 40).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(40)).toEqual([429, 429, 429, 429, 429]);
  });

  it('serves the same handler on its own port at / (OSMAND_PORT)', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const address = await t.terminals.listenOsmand(0, '127.0.0.1');
    const res = await fetch(`${address}/?id=${phone}&lat=10&lon=20&timestamp=${seconds()}`, { method: 'POST' });
    expect(res.status).toBe(200);
    const bad = await fetch(`${address}/?id=${phone}&lat=100&lon=20&timestamp=${seconds()}`);
    expect(bad.status).toBe(400);
    expect(await stored(U_ID)).toHaveLength(1);
  });
});
