import type { PushMsg, PushNotify } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { authed } from '../helper.js';
import { HttpTransportType, hubClient, record, tenant, until } from '../hub/hubTestApp.js';
import { FAST_TERMINALS, createTerminalUser, fix, loggedIn, startTerminalApp } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// What the console sees of terminals: hub pushes, statistics, configuration pushes to terminals.
const t = useTestApp(() => startTerminalApp(FAST_TERMINALS));

async function subscribed(token: string, transport = HttpTransportType.WebSockets) {
  const client = hubClient(t, { token, transport });
  const msgs = record<PushMsg>(client, 'pushMsg');
  const notes = record<PushNotify>(client, 'pushNotify');
  await client.start();
  await client.invoke('FuncGPS');
  await client.invoke('FuncNotify');
  return { client, msgs, notes };
}

describe('online and offline pushed to the console', () => {
  it('pushes OnlineChange, NumOnlineUser and GPS as terminals come and go, to their enterprise only', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const user = await createTerminalUser(t, { E_ID: a.E_ID });
    const hubA = await subscribed(a.token);
    const hubB = await subscribed(b.token, HttpTransportType.LongPolling);
    const terminal = await loggedIn(t, user.phone);
    await until(() => hubA.notes.some((n) => n.type === 'OnlineChange'), 'OnlineChange online');
    expect(hubA.notes.find((n) => n.type === 'OnlineChange')?.data).toMatchObject({
      count: 1,
      delta: 1,
      users: [{ U_ID: user.U_ID, online: true }],
    });
    await until(() => hubA.msgs.some((m) => m.type === 'NumOnlineUser' && m.data === 1), 'NumOnlineUser 1');

    await terminal.request({ type: 'position', ...fix() });
    await until(
      () => hubA.msgs.some((m) => m.type === 'GPS' && m.data.some((g) => g.U_ID === user.U_ID && g.online)),
      'GPS',
    );

    terminal.socket.terminate();
    await until(() => hubA.notes.some((n) => n.type === 'OnlineChange' && n.data.delta === -1), 'OnlineChange offline');
    await until(
      () => hubA.msgs.some((m) => m.type === 'Notify' && m.data.some((x) => x.NType === 'Offline')),
      'Offline alarm',
    );
    await until(() => hubA.msgs.some((m) => m.type === 'NumOnlineUser' && m.data === 0), 'NumOnlineUser 0');

    const leaked = [...hubB.msgs, ...hubB.notes].filter((m) => JSON.stringify(m.data).includes(user.phone));
    expect(leaked).toEqual([]);
    await hubA.client.stop();
    await hubB.client.stop();
  });

  it('counts chat-online users in Statistics and GPS-online users in OnlineSummary', async () => {
    const a = await tenant(t);
    const users = await Promise.all([0, 1, 2].map(() => createTerminalUser(t, { E_ID: a.E_ID })));
    const terminals = await Promise.all(users.slice(0, 2).map((u) => loggedIn(t, u.phone)));
    await terminals[0]?.request({ type: 'position', ...fix() });
    await terminals[1]?.request({ type: 'position', ...fix(Date.now() - 600_000) });
    const api = authed(t.app, a.token);
    expect((await api.get('/api/Enterprise/Statistics')).json()).toMatchObject({ BaseData: { User: 3, Online: 2 } });
    expect((await api.get('/api/GISLocation/OnlineSummary')).json()).toMatchObject({
      BaseData: { User: 3, ChatOnline: 2, GpsOnline: 1 },
    });
    for (const terminal of terminals) terminal.close();
  });
});

describe('configuration push', () => {
  it('pushes the new profile when an administrator makes another one current', async () => {
    const a = await tenant(t);
    const user = await createTerminalUser(t, { E_ID: a.E_ID });
    const terminal = await loggedIn(t, user.phone);
    const api = authed(t.app, a.token);
    const saved = await api.post('/api/Enterprise/SaveLocationConfig', {
      scName: 'Patrol',
      scValue: '{"interval":15,"distance":50,"mode":"both"}',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { SC_ID } = saved.json<{ BaseData: { SC_ID: number } }>().BaseData;
    expect((await api.post('/api/Enterprise/SaveCurrentLocationConfig', { scID: String(SC_ID) })).statusCode).toBe(200);
    const pushed = await terminal.next((m) => m.type === 'config');
    expect(pushed).toMatchObject({ config: { interval: 15, distance: 50, mode: 'both', enabled: true } });
    terminal.close();
  });

  it("pushes a user's own GPS parameter when it changes, and leaves other terminals alone", async () => {
    const a = await tenant(t);
    const [mine, other] = await Promise.all([
      createTerminalUser(t, { E_ID: a.E_ID }),
      createTerminalUser(t, { E_ID: a.E_ID }),
    ]);
    const terminal = await loggedIn(t, mine.phone);
    const bystander = await loggedIn(t, other.phone);
    const res = await authed(t.app, a.token).post('/api/UserInfo/SaveLocationConfig', {
      uid: String(mine.U_ID),
      scValue: '{"interval":5,"enabled":false}',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await terminal.next((m) => m.type === 'config')).toMatchObject({ config: { interval: 5, enabled: false } });
    expect((await bystander.request({ type: 'heartbeat' })).type).toBe('ack');
    expect(bystander.received.some((m) => m.type === 'config')).toBe(false);
    terminal.close();
    bystander.close();
  });
});

describe('GISLocation', () => {
  it('returns a track in H_Time order between H_Time1 and H_Time2, in scope only', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const user = await createTerminalUser(t, { E_ID: a.E_ID });
    const terminal = await loggedIn(t, user.phone);
    const base = Date.now() - 100_000;
    const fixes = [3, 1, 2, 5, 4].map((i) => ({ ...fix(base + i * 1000, 22 + i / 100), fixType: i === 5 ? 1 : 0 }));
    expect(await terminal.request({ type: 'positions', fixes })).toMatchObject({ type: 'ack', stored: 5 });
    await t.terminals.service.writer.flush();
    const condition = (extra: Record<string, unknown>) =>
      `/api/GISLocation/QueryData?pageSize=500&jsonCondition=${encodeURIComponent(JSON.stringify({ E_ID: a.E_ID, U_ID: user.U_ID, ...extra }))}`;
    const track = await authed(t.app, a.token).get(
      condition({ H_Time1: base + 2000, H_Time2: new Date(base + 5000).toISOString() }),
    );
    expect(track.statusCode, track.body).toBe(200);
    expect(track.json<{ Data: { H_Time: number }[] }>().Data.map((r) => r.H_Time - base)).toEqual([
      2000, 3000, 4000, 5000,
    ]);
    const network = await authed(t.app, a.token).get(condition({ H_Type: 1 }));
    expect(network.json()).toMatchObject({ Total: 1, Data: [{ H_Time: base + 5000, H_Type: 1 }] });
    expect((await authed(t.app, b.token).get(condition({}))).json()).toMatchObject({ Total: 0, Data: [] });
    expect((await authed(t.app, a.token).get(condition({ H_Time1: 'soon' }))).statusCode).toBe(400);
    expect((await authed(t.app, a.token).get(`${condition({})}&pageSize=501`)).statusCode).toBe(400);
    terminal.close();
  });

  it('answers HeartRateHis for a phone in scope only', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const user = await createTerminalUser(t, { E_ID: a.E_ID });
    const terminal = await loggedIn(t, user.phone);
    await terminal.request({ type: 'heartRate', value: 77 });
    await t.terminals.service.writer.flush();
    const mine = await authed(t.app, a.token).get(`/api/GISLocation/HeartRateHis?phone=${user.phone}`);
    expect(mine.json()).toMatchObject({ Total: 1, Data: [{ Phone: user.phone, Value: 77, U_ID: user.U_ID }] });
    expect((await authed(t.app, b.token).get(`/api/GISLocation/HeartRateHis?phone=${user.phone}`)).statusCode).toBe(
      404,
    );
    expect((await authed(t.app, a.token).get('/api/GISLocation/HeartRateHis')).statusCode).toBe(400);
    // Not a phone (a NUL byte, letters): a validation error naming the field, never a 500.
    for (const phone of ['%00', 'abc', '1'.repeat(40)]) {
      const bad = await authed(t.app, a.token).get(`/api/GISLocation/HeartRateHis?phone=${phone}`);
      expect(bad.statusCode).toBe(400);
      expect(new Set(bad.json().Data.map((e: { field: string }) => e.field))).toEqual(new Set(['phone']));
    }
    terminal.close();
  });
});
