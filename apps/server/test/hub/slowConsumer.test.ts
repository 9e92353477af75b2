import http from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HubConnection } from '../../src/hub/hubConnection.js';
import { FAST_HUB, HANDSHAKE, RS, livePushAges, negotiate, sleep, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// A client that stops reading while pushes flow: the server queues it no push behind another; it
// holds the changes merged by user (conflation), so what it holds for the client (its queue plus
// what sits in the socket's buffers in this process) stays near one push, however much is pushed.
// Once the client reads again it gets every user's latest position, with no snapshot again.
const MAX_QUEUE_CHARS = 64 * 1024;
const USERS = 200;
/** A GPS push of every user: USERS records of about 600 characters. */
const PUSH_CHARS = USERS * 700;
/** Past this many buffered characters a transport takes no more writes (transports.ts HIGH_WATER). */
const TRANSPORT_HIGH_WATER = 64 * 1024;
const SUBSCRIBE = `{"type":1,"target":"FuncGPS","arguments":[],"invocationId":"1"}${RS}`;
const t = useTestApp(() =>
  startHubApp({ ...FAST_HUB, pushIntervalMs: 20, sessionCheckMs: 60_000, maxQueueChars: MAX_QUEUE_CHARS }),
);

const latitude = (round: number) => 22 + round / 1e4;

/** Every user of the demo enterprise moves once: one GPS delta of about PUSH_CHARS characters. */
function moveEveryone(round: number): void {
  for (let U_ID = 1; U_ID <= USERS; U_ID++) {
    t.live.reportPosition({
      E_ID: t.demo.E_ID,
      U_ID: 900_000 + U_ID,
      Phone: `139${U_ID}`,
      UserName: `Slow consumer test user ${U_ID} `.padEnd(400, 'x'),
      lat: latitude(round),
      lon: 114 + U_ID / 1e4,
      time: Date.now(),
    });
  }
}

/** Rounds of pushes the client is stalled for once the socket holds bytes in this process. */
const ROUNDS_HELD = 100;
/** A bound on the rounds before the socket holds bytes (the kernel's buffers take a few pushes). */
const MAX_ROUNDS = 3000;

/**
 * Pushes while the client does not read: until the socket holds bytes in this process (the kernel's
 * buffers are full), then ROUNDS_HELD rounds more. Counted in rounds, not in time: a busy machine
 * pushes fewer a second, and the bound is of what is held, however long that takes.
 * Returns the server side's counters, the last round and whether bytes were held.
 */
async function pushWhileStalled(connection: HubConnection) {
  let round = 0;
  let heldFrom: number | null = null;
  while (round < MAX_ROUNDS && (heldFrom === null || round - heldFrom < ROUNDS_HELD)) {
    moveEveryone((round += 1));
    await sleep(10);
    if (heldFrom === null && (connection.sink?.buffered() ?? 0) > 0) heldFrom = round;
  }
  return { peak: connection.peakPendingChars, round, held: heldFrom !== null };
}

/** The latest latitude of each user in the GPS pushes of `text` (hub records), and whether a snapshot came. */
function latestLatitudes(text: string) {
  const latest = new Map<number, number>();
  let snapshot = false;
  const records = text.split(RS);
  // The text may start and end within a record (it is a slice of what arrived so far): those are skipped.
  for (const [index, record] of records.entries()) {
    const whole = index > 0 && index < records.length - 1;
    if (!whole || !record.includes('"target":"pushMsg"')) continue;
    const push = (JSON.parse(record) as { arguments: { type: string; data: unknown }[] }).arguments[0]!;
    if (push.type === 'GPSArray') snapshot = true;
    if (push.type !== 'GPS') continue;
    for (const { U_ID, lat } of push.data as { U_ID: number; lat: number }[]) latest.set(U_ID, lat);
  }
  return { latest, snapshot };
}

/**
 * Stalls the client until its socket holds bytes and ROUNDS_HELD pushes of PUSH_CHARS more, and checks the bound; then it
 * reads again and must get every user's latest position on the same connection, and no snapshot.
 */
async function stallAndRecover(
  connection: () => HubConnection,
  client: { pause(): void; resume(): void; received(): string },
) {
  // The bound is of the stall: the subscription's snapshot (about 3 pushes' worth) was written
  // before it, and how much of it this process held depended on how soon the kernel took it.
  await until(() => connection().pendingChars === 0, 'the snapshot written out');
  connection().peakPendingChars = 0;
  const agesBefore = await livePushAges(t);
  client.pause();
  const before = client.received().length;
  const counters = await pushWhileStalled(connection());
  // The kernel's buffers filled up and the socket held bytes in this process too.
  expect(counters.held, `bytes held within ${MAX_ROUNDS} rounds`).toBe(true);
  expect(connection().sink?.buffered()).toBeGreaterThan(0);
  // At most the transport's high-water mark and the one push written past it (its frame and records too).
  expect(counters.peak).toBeLessThanOrEqual(TRANSPORT_HIGH_WATER + PUSH_CHARS + 1024);
  client.resume();
  const target = latitude(counters.round);
  await until(
    () => {
      const { latest } = latestLatitudes(client.received().slice(before));
      return latest.size === USERS && [...latest.values()].every((lat) => lat === target);
    },
    'every user at its latest position',
    10_000,
  );
  expect(latestLatitudes(client.received().slice(before)).snapshot).toBe(false);
  expect(connection().state).toBe('open');
  // What the client was held is counted as old as it was when it went: the metric shows a slow console.
  const ages = await livePushAges(t);
  const olderThanOneSecond = (a: typeof ages) => a.count - a.atMost('1');
  expect(olderThanOneSecond(ages) - olderThanOneSecond(agesBefore)).toBeGreaterThanOrEqual(1);
}

/** The server side of the connection negotiated with `connectionId`. */
function serverSide(connectionId: string): HubConnection {
  const found = t.hub.find(connectionId);
  if (!found) throw new Error('no server connection');
  return found;
}

describe('a slow consumer', () => {
  it('WebSocket: bytes held stay near one push while the client does not read, then it gets the latest', async () => {
    moveEveryone(0);
    const { body } = await negotiate(t, t.adminToken);
    const connection = () => serverSide(String(body?.connectionId));
    const socket = new WebSocket(`${t.hubUrl.replace('http', 'ws')}?id=${String(body?.connectionToken)}`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    let received = '';
    socket.on('message', (data: Buffer) => (received += data.toString('utf8')));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(HANDSHAKE + SUBSCRIBE);
    await until(() => received.includes('"invocationId":"1"'), 'the subscription');
    await stallAndRecover(connection, {
      pause: () => socket.pause(),
      resume: () => socket.resume(),
      received: () => received,
    });
    socket.close();
  });

  it('Server-Sent Events: bytes held stay near one push while the client does not read, then it gets the latest', async () => {
    moveEveryone(0);
    const { body } = await negotiate(t, t.adminToken);
    const id = String(body?.connectionToken);
    const connection = () => serverSide(String(body?.connectionId));
    const response = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(
        `${t.hubUrl}?id=${id}`,
        { headers: { accept: 'text/event-stream', authorization: `Bearer ${t.adminToken}` } },
        resolve,
      ),
    );
    let received = '';
    response.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const post = (text: string) =>
      fetch(`${t.hubUrl}?id=${id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.adminToken}` },
        body: text,
      });
    await post(HANDSHAKE + SUBSCRIBE);
    await until(() => received.includes('"invocationId":"1"'), 'the subscription');
    await stallAndRecover(connection, {
      pause: () => response.pause(),
      resume: () => response.resume(),
      // The records without their event framing (`data: ` lines).
      received: () => received.replace(/^data: /gm, '').replace(/\r\n/g, ''),
    });
    response.destroy();
  });
});
