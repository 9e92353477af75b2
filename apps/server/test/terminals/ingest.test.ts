import { NotificationTypes, TerminalCloseCodes, TerminalErrors } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { AlarmRaiser } from '../../src/terminals/alarms.js';
import { authed } from '../helper.js';
import { sleep, until } from '../hub/hubTestApp.js';
import { TestTerminal, createTerminalUser, fix, loggedIn, useTerminalApp } from './terminalTestApp.js';

// Positions, status, heart rate and the alarms the platform raises (DESIGN.md section 6).
const t = useTerminalApp({ heartbeatTimeoutMs: 600 }, undefined, { HEART_RATE_LOW: '50', HEART_RATE_HIGH: '140' });

const newUser = () => createTerminalUser(t, { E_ID: t.demo.E_ID });
const history = (U_ID: number) =>
  t.db.selectFrom('location_history').selectAll().where('U_ID', '=', U_ID).orderBy('H_Time').execute();
const alarms = (U_ID: number) =>
  t.db.selectFrom('notification').selectAll().where('U_ID', '=', U_ID).orderBy('N_ID').execute();

describe('positions', () => {
  it('stores acknowledged fixes in batches and keeps the newest as the live position', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const base = Date.now() - 10_000;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        terminal.request({ type: 'position', ...fix(base + i * 100, 22.5 + i / 1000) }),
      ),
    );
    expect(replies.every((r) => r.type === 'ack')).toBe(true);
    const batch = await terminal.request({
      type: 'positions',
      fixes: [fix(base - 5000), { ...fix(base - 4000), fixType: 1 }],
    });
    expect(batch).toMatchObject({ type: 'ack', stored: 2 });
    await t.terminals.service.writer.flush();
    const rows = await history(U_ID);
    expect(rows).toHaveLength(22);
    expect(rows[0]).toMatchObject({
      E_ID: t.demo.E_ID,
      H_Type: 0,
      C_Latitude: 22.54,
      Speed: 12,
      Course: 90,
      Accuracy: 5,
    });
    expect(rows[1]?.H_Type).toBe(1);
    // The late batch is history only: the live position stays the newest fix.
    expect(t.live.user(t.demo.E_ID, U_ID)?.position).toMatchObject({ time: base + 1900, lat: 22.519 });
    terminal.close();
  });

  it("stores a wrong clock's fixes far from today, and every other fix of their batch", async () => {
    const good = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const wrong = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const goodTerminal = await loggedIn(t, good.phone);
    const wrongTerminal = await loggedIn(t, wrong.phone);
    const now = Date.now();
    const times = [Date.UTC(2000, 0, 1, 0, 0, 1), Date.UTC(2013, 5, 1), now + 9 * 60_000];
    const replies = await Promise.all([
      wrongTerminal.request({ type: 'positions', fixes: times.map((time) => fix(time)) }),
      goodTerminal.request({ type: 'position', ...fix(now) }),
    ]);
    expect(replies).toMatchObject([{ type: 'ack', stored: 3 }, { type: 'ack' }]);
    // An ack means queued: the writer stores within its flush interval.
    const stored = () =>
      t.db
        .selectFrom('location_history')
        .select(['U_ID', 'H_Time'])
        .where('U_ID', 'in', [good.U_ID, wrong.U_ID])
        .orderBy('H_Time')
        .execute()
        .then((rows) => rows.map((r) => [r.U_ID, Number(r.H_Time)]));
    await expect.poll(stored).toEqual([
      [wrong.U_ID, times[0]],
      [wrong.U_ID, times[1]],
      [good.U_ID, now],
      [wrong.U_ID, times[2]],
    ]);
    goodTerminal.close();
    wrongTerminal.close();
  });

  it('refuses fixes as busy while the queue is full, and stores nothing for them', async () => {
    const { service } = t.terminals;
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const writer = service.writer as unknown as { options: { maxQueuedRows: number } };
    const before = writer.options.maxQueuedRows;
    writer.options.maxQueuedRows = 0;
    try {
      const reply = await terminal.request({ type: 'position', ...fix() });
      expect(reply).toMatchObject({ type: 'error', code: TerminalErrors.busy, retryAfterMs: 1000 });
    } finally {
      writer.options.maxQueuedRows = before;
    }
    await service.writer.flush();
    expect(await history(U_ID)).toHaveLength(0);
    terminal.close();
  });
});

describe('status, heart rate and alarms', () => {
  it("stores a user's alarms in the order of the reports, even when deciding the first takes longer, at the raiser's clock", async () => {
    const { phone, U_ID } = await newUser();
    let begun = 0;
    // The first episode check answers late (a slow Redis, say); the second at once.
    const episodes = {
      begin: async () => {
        begun += 1;
        if (begun === 1) await sleep(150);
        return true;
      },
      end: () => Promise.resolve(),
    };
    const errors: unknown[] = [];
    const raiser = new AlarmRaiser(t.db, t.live, episodes, {
      heartRate: { low: 40, high: 180 },
      onError: (error) => errors.push(error),
      clock: new FakeClock(Date.UTC(2030, 0, 1)),
    });
    const subject = { E_ID: t.demo.E_ID, U_ID, Phone: phone };
    raiser.battery(subject, 15);
    raiser.battery(subject, 9);
    await raiser.settle();
    const raised = (await alarms(U_ID)).filter((a) => a.NType === NotificationTypes.lowBattery);
    expect(raised.map((a) => a.Content)).toEqual(['Battery 15%', 'Battery 9%']);
    expect(raised.map((a) => Number(a.CreatedAt))).toEqual([Date.UTC(2030, 0, 1), Date.UTC(2030, 0, 1)]);
    expect(errors).toEqual([]);
  });

  it('raises one low-battery alarm per crossing of 15 %', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    for (const battery of [60, 15, 12, 10, 18, 11, 40, 9]) {
      expect((await terminal.request({ type: 'status', battery, signal: 70 })).type).toBe('ack');
    }
    await t.terminals.service.alarms.settle();
    const raised = (await alarms(U_ID)).filter((a) => a.NType === NotificationTypes.lowBattery);
    expect(raised.map((a) => a.Content)).toEqual(['Battery 15%', 'Battery 9%']);
    expect(t.live.user(t.demo.E_ID, U_ID)).toMatchObject({ battery: 9, signal: 70 });
    terminal.close();
  });

  it('stores heart rates and raises an alarm when one leaves the configured range', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const now = Date.now();
    for (const [i, value] of [80, 150, 160, 90, 45].entries()) {
      expect((await terminal.request({ type: 'heartRate', value, time: now - 5000 + i })).type).toBe('ack');
    }
    await t.terminals.service.writer.flush();
    await t.terminals.service.alarms.settle();
    const raised = (await alarms(U_ID)).filter((a) => a.NType === NotificationTypes.heartRate);
    expect(raised.map((a) => a.Content)).toEqual([
      'Heart rate 150 bpm (range 50-140)',
      'Heart rate 45 bpm (range 50-140)',
    ]);
    const res = await authed(t.app, t.adminToken).get(`/api/GISLocation/HeartRateHis?phone=${phone}`);
    expect(res.json()).toMatchObject({
      Total: 5,
      Data: [{ Value: 80 }, { Value: 150 }, { Value: 160 }, { Value: 90 }, { Value: 45 }],
    });
    terminal.close();
  });

  it('stores an SOS with its position, acknowledges it with the alarm id and keeps it unhandled in LiveState', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const ack = await terminal.request({ type: 'sos', lat: 22.6, lon: 114.1, text: 'Help at gate 3' });
    expect(ack).toMatchObject({ type: 'ack', N_ID: expect.any(Number) });
    const [row] = await alarms(U_ID);
    expect(row).toMatchObject({
      N_ID: ack.N_ID,
      NType: 'SOS',
      Content: 'Help at gate 3',
      Latitude: 22.6,
      Longitude: 114.1,
      State: 'new',
      Phone: phone,
    });
    const snapshot = t.live.snapshot([t.demo.E_ID]).notifications.map((text) => JSON.parse(text) as { N_ID: number });
    expect(snapshot.some((n) => n.N_ID === ack.N_ID)).toBe(true);
    terminal.close();
  });

  it('raises Offline after the heartbeat timeout, but not after a logout', async () => {
    const silent = await newUser();
    const leaving = await newUser();
    const quiet = await loggedIn(t, silent.phone);
    const polite = await loggedIn(t, leaving.phone);
    await polite.request({ type: 'logout' });
    expect(await quiet.closed).toBe(TerminalCloseCodes.heartbeatTimeout);
    await until(() => t.live.user(t.demo.E_ID, silent.U_ID)?.online === false, 'offline');
    await t.terminals.service.alarms.settle();
    expect((await alarms(silent.U_ID)).map((a) => [a.NType, a.Content])).toEqual([['Offline', 'No heartbeat for 1 s']]);
    expect(await alarms(leaving.U_ID)).toEqual([]);
  });

  it('raises Offline when the connection drops, and keeps heartbeats alive past the timeout', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    for (let i = 0; i < 4; i++) {
      await sleep(250);
      expect((await terminal.request({ type: 'heartbeat' })).type).toBe('ack');
    }
    terminal.socket.terminate();
    await until(() => t.live.user(t.demo.E_ID, U_ID)?.online === false, 'offline');
    await t.terminals.service.alarms.settle();
    expect((await alarms(U_ID)).map((a) => a.Content)).toEqual(['Connection lost']);
  });

  it('closes the socket of a user an administrator freezes, without an Offline alarm', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const res = await authed(t.app, t.adminToken).post('/api/UserInfo/FreezeUser', {
      MobilePhone: phone,
      isLock: 'true',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await terminal.closed).toBe(TerminalCloseCodes.accountChanged);
    expect(terminal.received.at(-1)).toMatchObject({ type: 'closing', reason: 'frozen' });
    expect(t.live.user(t.demo.E_ID, U_ID)?.online).toBe(false);
    const again = await TestTerminal.connect(t);
    expect(await again.login(phone)).toMatchObject({ code: TerminalErrors.frozen });
    again.close();
    expect(await alarms(U_ID)).toEqual([]);
  });
});
