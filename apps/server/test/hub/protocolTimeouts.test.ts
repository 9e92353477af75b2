import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeClock } from '../../src/core/clock.js';
import { negotiate, rawLongPolling, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// The hub protocol's timers (notes/signalr-protocol.md) in fake time: the app runs on a FakeClock, so
// each timeout is checked at its exact length, however loaded the machine is. The hub scans its
// connections every 200 ms here (half the shortest timeout), so a connection goes at the first scan
// after its timeout has passed.
const POLL_MS = 300;
const HANDSHAKE_MS = 800;
const DISCONNECT_MS = 400;
const SCAN_MS = 200;
const clock = new FakeClock(Date.now());
const t = useTestApp(() =>
  startHubApp(
    {
      keepAliveMs: 1000,
      handshakeTimeoutMs: HANDSHAKE_MS,
      pollTimeoutMs: POLL_MS,
      disconnectTimeoutMs: DISCONNECT_MS,
      pushIntervalMs: 20,
      sessionCheckMs: 60_000,
    },
    { clock },
  ),
);

/** Whether the connection's long-polling transport holds a poll now. */
const polling = (id: string) => (t.hub.get(id)?.sink as { polling?: boolean } | null | undefined)?.polling === true;

/** A promise's outcome so far, without waiting for it. */
function watch<T>(promise: Promise<T>): { settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  void promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

describe('long-polling timers, in fake time', () => {
  it('answers a held poll empty at the poll timeout, not before', async () => {
    const lp = await rawLongPolling(t, t.adminToken);
    expect(await (await lp.poll()).text()).toBe('');
    const held = watch(lp.poll());
    await until(() => polling(lp.id), 'a held poll');
    await clock.advance(POLL_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(held.settled).toBe(false);
    await clock.advance(1);
    const answer = await held.promise;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('');
    await lp.remove();
  });

  it('drops a client that stops polling (killed, no DELETE) after the disconnect timeout', async () => {
    const lp = await rawLongPolling(t, t.adminToken);
    await lp.connect();
    const abort = new AbortController();
    const poll = lp.poll(abort.signal).catch(() => undefined);
    await until(() => polling(lp.id), 'a held poll');
    const gone = new Promise<string>((resolve) =>
      t.hub.on('disconnected', (connection, reason) => {
        if (connection.connectionToken === lp.id) resolve(reason);
      }),
    );
    abort.abort();
    await poll;
    await until(() => !polling(lp.id), 'the killed poll seen');
    await clock.advance(DISCONNECT_MS);
    expect(t.hub.get(lp.id)).toBeDefined();
    await clock.advance(SCAN_MS);
    expect(await gone).toBe('long polling client gone');
    expect((await lp.poll()).status).toBe(404);
  });

  it('drops a negotiated connection whose transport never arrives after the disconnect timeout', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const token = String(body?.connectionToken);
    await clock.advance(DISCONNECT_MS);
    expect(t.hub.get(token)).toBeDefined();
    await clock.advance(SCAN_MS);
    expect(t.hub.get(token)).toBeUndefined();
  });

  it('drops a long-polling client that never sends its handshake after the handshake timeout', async () => {
    const lp = await rawLongPolling(t, t.adminToken);
    await lp.poll();
    await clock.advance(HANDSHAKE_MS);
    expect(t.hub.get(lp.id)).toBeDefined();
    await clock.advance(SCAN_MS);
    expect(t.hub.get(lp.id)).toBeUndefined();
  });
});

describe('WebSocket timers, in fake time', () => {
  it('closes a client that never sends its handshake after the handshake timeout', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const id = String(body?.connectionToken);
    const socket = new WebSocket(`${t.hubUrl.replace(/^http/, 'ws')}?id=${id}`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    const closed = watch(new Promise<number>((resolve) => socket.once('close', (code) => resolve(code))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    await until(() => Boolean(t.hub.get(id)?.sink), 'the socket attached');
    await clock.advance(HANDSHAKE_MS);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed.settled).toBe(false);
    await clock.advance(SCAN_MS);
    await closed.promise;
    expect(t.hub.get(id)).toBeUndefined();
  });
});
