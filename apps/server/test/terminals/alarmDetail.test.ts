import { AlarmDetailKeys, NotificationTypes, type NotifyRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { insertNotification } from '../../src/modules/notify/notifyRepository.js';
import { authed } from '../helper.js';
import { until } from '../hub/hubTestApp.js';
import { pushedDuring } from '../live/pushedDuring.js';
import { FAST_TERMINALS, createTerminalUser, loggedIn, startTerminalApp } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// Issue 51: the details the platform writes are a key and parameters, so each console shows them in
// its reader's language; Content keeps the English words; rows stored before show their Content.
const t = useTestApp(() => startTerminalApp({ ...FAST_TERMINALS, heartbeatTimeoutMs: 600 }));

/** The user's alarms as the alarm records list them (QueryData), oldest first. */
async function listed(U_ID: number): Promise<NotifyRow[]> {
  const condition = encodeURIComponent(JSON.stringify({ U_ID }));
  const res = await authed(t.app, t.adminToken).get(`/api/Notification/QueryData?jsonCondition=${condition}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ Data: NotifyRow[] }>().Data.sort((a, b) => a.N_ID - b.N_ID);
}

describe('alarm details as a key and parameters', () => {
  it('lists a low battery, an SOS and a lost connection with their keys, and pushes the same', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = await loggedIn(t, phone);
    const pushed = await pushedDuring(t.live, async () => {
      expect((await terminal.request({ type: 'status', battery: 9, signal: 70 })).type).toBe('ack');
      // The battery alarm is decided after the ack: stored before the SOS, so the order is known.
      await t.terminals.service.alarms.settle();
      expect((await terminal.request({ type: 'sos', lat: 22.6, lon: 114.1 })).type).toBe('ack');
      await t.terminals.service.alarms.settle();
    });
    terminal.socket.terminate();
    await until(() => t.live.user(t.demo.E_ID, U_ID)?.online === false, 'offline');
    await t.terminals.service.alarms.settle();

    const rows = await listed(U_ID);
    expect(rows.map((row) => [row.NType, row.Content, row.Detail])).toEqual([
      [NotificationTypes.lowBattery, 'Battery 9%', { key: AlarmDetailKeys.battery, params: { percent: 9 } }],
      [NotificationTypes.sos, 'SOS', { key: AlarmDetailKeys.sos, params: {} }],
      [NotificationTypes.offline, 'Connection lost', { key: AlarmDetailKeys.connectionLost, params: {} }],
    ]);
    expect(pushed.map((n) => n.Detail?.key)).toEqual([AlarmDetailKeys.battery, AlarmDetailKeys.sos]);
  });

  it('lists a heartbeat timeout with its seconds as parameters', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const quiet = await loggedIn(t, phone);
    await quiet.closed;
    await until(() => t.live.user(t.demo.E_ID, U_ID)?.online === false, 'offline');
    await t.terminals.service.alarms.settle();
    const [row] = await listed(U_ID);
    expect(row).toMatchObject({
      Content: 'No heartbeat for 1 s',
      Detail: { key: AlarmDetailKeys.noHeartbeat, params: { seconds: 1 } },
    });
  });

  it("keeps a worker's own SOS words as they are, with no key", async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const terminal = await loggedIn(t, phone);
    expect((await terminal.request({ type: 'sos', text: '救命 gate 3' })).type).toBe('ack');
    const [row] = await listed(U_ID);
    expect(row).toMatchObject({ Content: '救命 gate 3', Detail: null });
    terminal.close();
  });

  it('shows rows stored before, or with an unreadable detail, by their Content alone', async () => {
    const { phone, U_ID } = await createTerminalUser(t, { E_ID: t.demo.E_ID });
    const old = await insertNotification(t.db, {
      E_ID: t.demo.E_ID,
      U_ID,
      Phone: phone,
      NType: 'Offline',
      Content: 'Connection lost',
      CreatedAt: Date.now(),
    });
    const garbled = await insertNotification(t.db, {
      E_ID: t.demo.E_ID,
      U_ID,
      Phone: phone,
      NType: 'LowBattery',
      Content: 'Battery 3%',
      CreatedAt: Date.now(),
    });
    await t.db.updateTable('notification').set({ Detail: '{"key": 42' }).where('N_ID', '=', garbled.N_ID).execute();
    expect(old.Detail).toBeUndefined();
    const rows = await listed(U_ID);
    expect(rows.map((row) => [row.Content, row.Detail])).toEqual([
      ['Connection lost', null],
      ['Battery 3%', null],
    ]);
  });
});
