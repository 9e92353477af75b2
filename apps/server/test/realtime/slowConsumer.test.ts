import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HubConnection } from '../../src/realtime/hubConnection.js';
import { FAST_HUB, HANDSHAKE, RS, negotiate, sleep, startHubApp, until, type HubTestApp } from './hubTestApp.js';

// A client that stops reading while pushes flow: what the server holds for it (its queue plus what
// sits in the socket's buffers in this process) stays under the cap plus one snapshot, however
// much is pushed; once it reads again it gets a fresh snapshot and the connection lives on.
const MAX_QUEUE_CHARS = 64 * 1024;
const USERS = 200;
const SUBSCRIBE = `{"type":1,"target":"FuncGPS","arguments":[],"invocationId":"1"}${RS}`;
let t: HubTestApp;

beforeAll(async () => {
  t = await startHubApp({ ...FAST_HUB, pushIntervalMs: 20, sessionCheckMs: 60_000, maxQueueChars: MAX_QUEUE_CHARS });
});
afterAll(async () => {
  await t.close();
});

/** Every user of the demo enterprise moves once: one GPS delta of about USERS * 600 characters. */
function moveEveryone(round: number): void {
  for (let U_ID = 1; U_ID <= USERS; U_ID++) {
    t.live.reportPosition({
      E_ID: t.demo.E_ID,
      U_ID: 900_000 + U_ID,
      Phone: `139${U_ID}`,
      UserName: `Slow consumer test user ${U_ID} `.padEnd(400, 'x'),
      lat: 22 + round / 1e4,
      lon: 114 + U_ID / 1e4,
      time: Date.now(),
    });
  }
}

/** Pushes for `ms` while the client does not read; returns the server side's counters. */
async function pushWhileStalled(connection: HubConnection, ms: number) {
  const deadline = Date.now() + ms;
  let round = 0;
  while (Date.now() < deadline) {
    moveEveryone((round += 1));
    await sleep(10);
  }
  return { overflows: connection.overflows, peak: connection.peakPendingChars, snapshot: connection.snapshotChars };
}

function expectBounded(counters: { overflows: number; peak: number; snapshot: number }) {
  // Pushes did back up (the cap was hit, backlog replaced by a snapshot) ...
  expect(counters.overflows).toBeGreaterThan(0);
  // ... and what was held never went past the cap plus one forced snapshot (plus a ping's worth).
  const cap = Math.max(MAX_QUEUE_CHARS, 2 * counters.snapshot);
  expect(counters.peak).toBeLessThanOrEqual(cap + counters.snapshot + 1024);
}

/**
 * Stalls the client for 3 s of pushes and checks the bound; then it reads again and must get a fresh
 * snapshot on the same connection.
 */
async function stallAndRecover(
  connection: () => HubConnection,
  client: { pause(): void; resume(): void; received(): string },
) {
  client.pause();
  const counters = await pushWhileStalled(connection(), 3000);
  // The kernel's buffers filled up and the socket held bytes in this process too.
  expect(connection().sink?.buffered()).toBeGreaterThan(0);
  expectBounded(counters);
  const before = client.received().length;
  client.resume();
  await until(() => client.received().slice(before).includes('"type":"GPSArray"'), 'a fresh snapshot', 10_000);
  expect(connection().state).toBe('open');
}

/** The server side of the connection negotiated with `connectionId`. */
function serverSide(connectionId: string): HubConnection {
  const found = t.hub.find(connectionId);
  if (!found) throw new Error('no server connection');
  return found;
}

describe('a slow consumer', () => {
  it('WebSocket: bytes held stay under the cap while the client does not read', async () => {
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

  it('Server-Sent Events: bytes held stay under the cap while the client does not read', async () => {
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
      received: () => received,
    });
    response.destroy();
  });
});
