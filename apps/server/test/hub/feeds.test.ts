import type { HubConnection as ClientConnection, ISubscription } from '@microsoft/signalr';
import {
  NotificationStates,
  pushMsgSchema,
  pushNotifySchema,
  type GpsRecord,
  type Notification,
  type PushMsg,
  type PushNotify,
} from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import {
  GPS_SNAPSHOT,
  HttpTransportType,
  RS,
  hubClient,
  rawLongPolling,
  record,
  records,
  sleep,
  startHubApp,
  tenant,
  until,
} from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// FuncGPS / FuncNotify: snapshots, deltas, coalescing, scope, streams and backpressure (checklist 11, 15).
const t = useTestApp(() => startHubApp({ keepAliveMs: 1000, pushIntervalMs: 250, sessionCheckMs: 60_000 }));
let nextId = 1000;

function notification(E_ID: number, overrides: Partial<Notification> = {}): Notification {
  nextId += 1;
  return {
    N_ID: nextId,
    E_ID,
    U_ID: null,
    Phone: `138${nextId}`,
    NType: 'SOS',
    Content: '',
    Latitude: null,
    Longitude: null,
    State: NotificationStates.new,
    CreatedAt: Date.now(),
    ...overrides,
  };
}

async function started(token: string, transport = HttpTransportType.WebSockets) {
  const client = hubClient(t, { token, transport });
  const msgs = record<PushMsg>(client, 'pushMsg');
  const notes = record<PushNotify>(client, 'pushNotify');
  await client.start();
  return { client, msgs, notes };
}

const ofType = <T extends { type: string }>(list: T[], type: string) => list.filter((m) => m.type === type);

describe('snapshot', () => {
  it('FuncGPS starts with the latest state of the scope, and FuncNotify with online users and alarms', async () => {
    const user = await tenant(t);
    const E_ID = user.E_ID;
    t.live.reportPosition({ E_ID, U_ID: 1, Phone: '100', UserName: 'one', lat: 10, lon: 20, time: 1000 });
    t.live.reportPosition({ E_ID, U_ID: 1, lat: 11, lon: 21, time: 2000, speed: 5, course: 90 });
    t.live.reportStatus({ E_ID, U_ID: 1, battery: 80, signal: 60 });
    t.live.setOnline({ E_ID, U_ID: 1 }, true);
    t.live.setOnline({ E_ID, U_ID: 2, Phone: '200', UserName: 'two' }, true);
    const unhandled = notification(E_ID);
    const handled = notification(E_ID);
    t.live.raiseNotification(unhandled);
    t.live.raiseNotification(handled);
    t.live.raiseNotification({ ...handled, State: NotificationStates.handled });
    t.live.reportHeartRate({ E_ID, U_ID: 1, Phone: '100', Value: 72, H_Time: 5000 });

    const { client, msgs, notes } = await started(user.token);
    await client.invoke('FuncGPS');
    await client.invoke('FuncNotify');
    for (const m of msgs) pushMsgSchema.parse(m);
    for (const n of notes) pushNotifySchema.parse(n);
    const expected: GpsRecord = {
      U_ID: 1,
      E_ID,
      Phone: '100',
      UserName: 'one',
      lat: 11,
      lon: 21,
      time: 2000,
      speed: 5,
      course: 90,
      battery: 80,
      signal: 60,
      online: true,
      talking: false,
      gpsOnline: false,
      interval: 60,
    };
    expect(msgs).toEqual([
      { type: 'GPSArray', data: [expected] },
      { type: 'NumOnlineUser', data: 2 },
      { type: 'OnlineUser', data: [expect.objectContaining({ U_ID: 1 }), expect.objectContaining({ U_ID: 2 })] },
      { type: 'Notifys', data: [unhandled] },
      { type: 'HeartRate', data: [{ E_ID, U_ID: 1, Phone: '100', Value: 72, H_Time: 5000 }] },
      { type: 'Videos', data: [] },
    ]);
    expect(notes).toEqual([
      {
        type: 'Online',
        data: { count: 2, users: [expect.objectContaining({ U_ID: 1 }), expect.objectContaining({ U_ID: 2 })] },
      },
      { type: 'Notifys', data: [unhandled] },
    ]);
    await client.stop();
  });
});

describe('deltas', () => {
  it('pushes positions, online changes, alarms and heart rate after the snapshot', async () => {
    const user = await tenant(t);
    const E_ID = user.E_ID;
    const { client, msgs, notes } = await started(user.token, HttpTransportType.LongPolling);
    await client.invoke('FuncGPS');
    await client.invoke('FuncNotify');
    msgs.length = 0;
    notes.length = 0;

    t.live.setOnline({ E_ID, U_ID: 5, Phone: '500' }, true);
    t.live.reportPosition({ E_ID, U_ID: 5, lat: 1, lon: 2, time: Date.now() });
    const alarm = notification(E_ID, { NType: 'LowBattery' });
    t.live.raiseNotification(alarm);
    t.live.reportHeartRate({ E_ID, U_ID: 5, Phone: '500', Value: 150, H_Time: Date.now() });
    await until(() => ofType(msgs, 'HeartRate').length > 0 && notes.length >= 2, 'the deltas');
    for (const m of msgs) pushMsgSchema.parse(m);
    for (const n of notes) pushNotifySchema.parse(n);
    expect(ofType(msgs, 'GPS')[0]?.data).toEqual([expect.objectContaining({ U_ID: 5, online: true })]);
    expect(ofType(msgs, 'OnlineUser')[0]?.data).toEqual([expect.objectContaining({ U_ID: 5, online: true })]);
    expect(ofType(msgs, 'NumOnlineUser')[0]?.data).toBe(1);
    expect(ofType(msgs, 'Notify')[0]?.data).toEqual([alarm]);
    expect(ofType(notes, 'OnlineChange')[0]?.data).toEqual({
      count: 1,
      delta: 1,
      users: [expect.objectContaining({ U_ID: 5, online: true })],
    });
    expect(ofType(notes, 'Notify')[0]?.data).toEqual([alarm]);

    notes.length = 0;
    t.live.setOnline({ E_ID, U_ID: 5 }, false);
    await until(() => ofType(notes, 'OnlineChange').length > 0, 'going offline');
    expect(ofType(notes, 'OnlineChange')[0]?.data).toMatchObject({ count: 0, delta: -1 });
    await client.stop();
  });

  // The rule (at most one push per interval, held pushes merged) is a table in fake time
  // (pushCoalescing.table.test.ts); over a socket, a burst arrives merged, the latest position winning.
  it('delivers a burst over the socket merged, the latest position per user winning', async () => {
    const user = await tenant(t);
    const { client, msgs } = await started(user.token);
    await client.invoke('FuncGPS');
    const base = Date.now();
    const BURST = 50;
    // One synchronous burst: every change lands before the scope's push timer can run.
    for (let i = 1; i <= BURST; i++) {
      for (const U_ID of [1, 2, 3]) {
        t.live.reportPosition({ E_ID: user.E_ID, U_ID, lat: i / 1000, lon: U_ID, time: base + i });
      }
    }
    await until(() => {
      const last = ofType(msgs, 'GPS').at(-1)?.data as GpsRecord[] | undefined;
      return last?.some((r) => r.U_ID === 1 && r.time === base + BURST) ?? false;
    }, 'the last position');
    const pushes = ofType(msgs, 'GPS');
    expect(pushes).toHaveLength(1);
    const users = (pushes[0]?.data as GpsRecord[]).map((r) => [r.U_ID, r.time]);
    expect(users.sort()).toEqual([
      [1, base + BURST],
      [2, base + BURST],
      [3, base + BURST],
    ]);
    await client.stop();
  });
});

describe('scope', () => {
  it('never sends one enterprise another’s positions or alarms; a parent sees its sub-enterprises', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const parent = await tenant(t);
    const child = await tenant(t, parent.E_ID);
    const clients = await Promise.all([a, b, parent, child].map((x) => started(x.token)));
    for (const c of clients) {
      await c.client.invoke('FuncGPS');
      await c.client.invoke('FuncNotify');
    }
    const [ca, cb, cparent, cchild] = clients as [
      Awaited<ReturnType<typeof started>>,
      Awaited<ReturnType<typeof started>>,
      Awaited<ReturnType<typeof started>>,
      Awaited<ReturnType<typeof started>>,
    ];
    for (const [x, U_ID] of [
      [a, 11],
      [b, 22],
      [parent, 33],
      [child, 44],
    ] as const) {
      t.live.reportPosition({ E_ID: x.E_ID, U_ID, lat: 1, lon: 1, time: Date.now() });
      t.live.raiseNotification(notification(x.E_ID, { U_ID }));
      t.live.setOnline({ E_ID: x.E_ID, U_ID }, true);
    }
    await until(() => ofType(cparent.msgs, 'GPS').flatMap((m) => m.data as GpsRecord[]).length >= 2, 'parent pushes');
    await sleep(400);
    const gpsOf = (c: typeof ca) => ofType(c.msgs, 'GPS').flatMap((m) => (m.data as GpsRecord[]).map((r) => r.U_ID));
    const alarmsOf = (c: typeof ca) => [
      ...ofType(c.msgs, 'Notify').flatMap((m) => (m.data as Notification[]).map((n) => n.U_ID)),
      ...ofType(c.notes, 'Notify').flatMap((m) => (m.data as Notification[]).map((n) => n.U_ID)),
    ];
    expect(gpsOf(ca)).toEqual([11]);
    expect(gpsOf(cb)).toEqual([22]);
    expect(gpsOf(cparent).sort()).toEqual([33, 44]);
    expect(gpsOf(cchild)).toEqual([44]);
    expect(new Set(alarmsOf(ca))).toEqual(new Set([11]));
    expect(new Set(alarmsOf(cb))).toEqual(new Set([22]));
    expect(new Set(alarmsOf(cparent))).toEqual(new Set([33, 44]));
    expect(new Set(alarmsOf(cchild))).toEqual(new Set([44]));
    expect(ofType(cparent.msgs, 'NumOnlineUser').at(-1)?.data).toBe(2);
    expect(ofType(ca.msgs, 'NumOnlineUser').at(-1)?.data).toBe(1);
    for (const c of clients) await c.client.stop();
  });

  it('reaches every subscribed connection of the scope once, whatever its transport, and no one else', async () => {
    const user = await tenant(t);
    const A = await started(user.token, HttpTransportType.LongPolling);
    const B = await started(user.token, HttpTransportType.WebSockets);
    const C = await started(user.token, HttpTransportType.ServerSentEvents);
    await A.client.invoke('FuncNotify');
    await B.client.invoke('FuncNotify');
    const alarm = notification(user.E_ID);
    t.live.raiseNotification(alarm);
    await until(() => ofType(A.notes, 'Notify').length === 1 && ofType(B.notes, 'Notify').length === 1, 'A and B');
    await sleep(300);
    expect(ofType(A.notes, 'Notify')).toEqual([{ type: 'Notify', data: [alarm] }]);
    expect(ofType(B.notes, 'Notify')).toEqual([{ type: 'Notify', data: [alarm] }]);
    expect(C.notes).toEqual([]);

    expect(await A.client.invoke('Unsubscribe', 'FuncNotify')).toBe(true);
    t.live.raiseNotification(notification(user.E_ID));
    await until(() => ofType(B.notes, 'Notify').length === 2, 'B again');
    await sleep(300);
    expect(ofType(A.notes, 'Notify')).toHaveLength(1);
    for (const c of [A, B, C]) await c.client.stop();
  });

  it('gives every WebSocket console of the scope the same push whole: any script, any length', async () => {
    // One frame per push, built once and written to each socket (issue 34). The handshake's few
    // bytes, an alarm's hundreds and one of 90,000 cross the 2-, 4- and 10-byte length forms, and
    // text outside ASCII keeps its bytes.
    const user = await tenant(t);
    const consoles = [await started(user.token), await started(user.token)];
    for (const c of consoles) await c.client.invoke('FuncNotify');
    const alarms = [
      notification(user.E_ID, { Content: '坠落报警 — caída detectada — 転倒検知 🚨' }),
      notification(user.E_ID, { Content: '短' }),
      notification(user.E_ID, { Content: '区'.repeat(30_000) }),
    ];
    for (const alarm of alarms) {
      for (const c of consoles) c.notes.length = 0;
      t.live.raiseNotification(alarm);
      await until(() => consoles.every((c) => ofType(c.notes, 'Notify').length === 1), 'the alarm on both');
      for (const c of consoles) expect(ofType(c.notes, 'Notify')).toEqual([{ type: 'Notify', data: [alarm] }]);
    }
    for (const c of consoles) await c.client.stop();
  });
});

describe('streams and errors', () => {
  function collect(client: ClientConnection, method: string) {
    const items: { type: string; data: unknown }[] = [];
    let completed = false;
    let failed: Error | undefined;
    const subscription: ISubscription<{ type: string; data: unknown }> = client.stream(method).subscribe({
      next: (item) => items.push(item),
      complete: () => {
        completed = true;
      },
      error: (error: Error) => {
        failed = error;
      },
    });
    return { items, subscription, isComplete: () => completed, error: () => failed };
  }

  it('stream("FuncGPS") yields the snapshot then deltas; disposing sends CancelInvocation and stops it', async () => {
    const user = await tenant(t);
    const { client, msgs } = await started(user.token, HttpTransportType.ServerSentEvents);
    const server = t.hub.find(client.connectionId ?? '');
    const received: number[] = [];
    t.hub.on('message', (connection, message) => {
      if (connection === server) received.push(message.type);
    });
    const gps = collect(client, 'FuncGPS');
    await until(() => gps.items.length >= 5, 'the snapshot items');
    expect(gps.items.map((i) => i.type)).toEqual(GPS_SNAPSHOT);
    t.live.reportPosition({ E_ID: user.E_ID, U_ID: 1, lat: 1, lon: 1, time: Date.now() });
    await until(() => gps.items.some((i) => i.type === 'GPS'), 'a delta item');
    expect(msgs).toEqual([]);

    gps.subscription.dispose();
    await until(() => received.includes(5), 'CancelInvocation at the server');
    const count = gps.items.length;
    t.live.reportPosition({ E_ID: user.E_ID, U_ID: 1, lat: 2, lon: 2, time: Date.now() });
    await sleep(400);
    expect(gps.items).toHaveLength(count);
    await client.stop();
  });

  it('stream("FuncNotify") completes when a newer subscription replaces it', async () => {
    const user = await tenant(t);
    const { client, notes } = await started(user.token);
    const stream = collect(client, 'FuncNotify');
    await until(() => stream.items.length >= 2, 'the snapshot items');
    expect(stream.items.map((i) => i.type)).toEqual(['Online', 'Notifys']);
    await client.invoke('FuncNotify');
    await until(() => stream.isComplete(), 'the stream to complete');
    expect(notes.map((n) => n.type)).toEqual(['Online', 'Notifys']);
    await client.stop();
  });

  it('rejects unknown methods, bad arguments and wrong invocation kinds, and stays connected', async () => {
    const { client } = await started(t.adminToken, HttpTransportType.LongPolling);
    await expect(client.invoke('NoSuchMethod')).rejects.toThrow("Unknown hub method 'NoSuchMethod'");
    await expect(client.invoke('Unsubscribe', 'bogus')).rejects.toThrow("Unknown feed 'bogus'");
    const wrong = collect(client, 'Unsubscribe');
    await until(() => wrong.error() !== undefined, 'the stream error');
    expect(wrong.error()?.message).toContain('non-streaming');
    const unknown = collect(client, 'Nope');
    await until(() => unknown.error() !== undefined, 'the stream error');
    expect(await client.invoke('funcgps')).toMatchObject({ feed: 'FuncGPS' });
    await client.stop();
  });
});

describe('backpressure', () => {
  it('holds a slow consumer’s changes merged by user and sends the latest of each once it is ready', async () => {
    const small = await startHubApp({
      pushIntervalMs: 10,
      maxQueueChars: 4000,
      keepAliveMs: 1000,
      pollTimeoutMs: 5000,
    });
    try {
      const user = await tenant(small);
      const lp = await rawLongPolling(small, user.token);
      await lp.connect();
      await lp.send(`{"type":1,"target":"FuncGPS","arguments":[],"invocationId":"1"}${RS}`);
      const server = small.hub.get(lp.id);
      if (!server) throw new Error('no server connection');
      // The client does not poll while 40 users report 100 rounds (about 100 pushes).
      const ROUNDS = 100;
      let largest = 0;
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (let U_ID = 1; U_ID <= 40; U_ID += 1) {
          small.live.reportPosition({ E_ID: user.E_ID, U_ID, lat: round / 100, lon: U_ID, time: round });
        }
        await sleep(12);
        largest = Math.max(largest, server.pendingChars);
      }
      await sleep(50);
      // Nothing piled up behind the subscription's answer and snapshot (their records and a ping: about
      // 1 KB beside the snapshot's arguments; the 100 pushes would be 700 KB), and no snapshot was needed again.
      expect(largest).toBeLessThanOrEqual(server.snapshotChars + 1024);

      const first = records(await (await lp.poll()).text());
      expect(first).toContainEqual(expect.objectContaining({ type: 3, invocationId: '1' }));
      const pushesOf = (messages: Record<string, unknown>[]) =>
        messages.filter((m) => m.type === 1).map((m) => (m.arguments as PushMsg[])[0]!);
      expect(pushesOf(first).map((p) => p.type)).toContain('GPSArray');
      // The next poll: one GPS push, every user once, at its latest round.
      const second = await (await lp.poll()).text();
      expect(pushesOf(records(second)).map((p) => p.type)).not.toContain('GPSArray');
      const held = pushesOf(records(second)).filter((p): p is Extract<PushMsg, { type: 'GPS' }> => p.type === 'GPS');
      expect(held).toHaveLength(1);
      const positions = held[0]!.data;
      expect(positions.map((r) => r.U_ID).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      for (const position of positions) expect(position).toMatchObject({ time: ROUNDS, lat: ROUNDS / 100 });
      await lp.remove();
    } finally {
      await small.close();
    }
  });
});
