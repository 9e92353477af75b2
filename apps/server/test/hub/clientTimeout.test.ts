import { HubConnectionState } from '@microsoft/signalr';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FakeClock } from '../../src/core/clock.js';
import { FAST_HUB, HANDSHAKE, HttpTransportType, RS, hubClient, negotiate, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// ASP.NET's ClientTimeoutInterval: a WebSocket or SSE client that sends nothing (not even a ping
// record) for clientTimeoutMs is dropped; one that pings, as the official client does, never is. The
// app runs on a FakeClock: the hub scans its connections every 150 ms of it (half the keep-alive), so
// a silent client is still there at the timeout and gone at the next scan.
const CLIENT_TIMEOUT_MS = 1500;
const SCAN_MS = 150;
const clock = new FakeClock(Date.now());
const t = useTestApp(() =>
  startHubApp({ ...FAST_HUB, keepAliveMs: 300, clientTimeoutMs: CLIENT_TIMEOUT_MS, sessionCheckMs: 60_000 }, { clock }),
);

/** Waits until the hub has the connection's handshake, then lets its client timeout pass: still there at it, gone after. */
async function silentPastTimeout(token: string): Promise<void> {
  await until(() => t.hub.get(token)?.handshaken === true, 'the handshake');
  await clock.advance(CLIENT_TIMEOUT_MS);
  expect(t.hub.get(token)).toBeDefined();
  await clock.advance(SCAN_MS);
}

/** Resolves with the reason the hub gives when it drops the connection of `connectionId`. */
function droppedReason(connectionId: string): Promise<string> {
  return new Promise((resolve) => {
    const listener = (connection: { connectionId: string }, reason: string) => {
      if (connection.connectionId !== connectionId) return;
      t.hub.off('disconnected', listener);
      resolve(reason);
    };
    t.hub.on('disconnected', listener);
  });
}

describe('client timeout', () => {
  it('drops a WebSocket client that went silent after its handshake, and cleans it up', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const token = String(body?.connectionToken);
    const connectionId = String(body?.connectionId);
    const socket = new WebSocket(`${t.hubUrl.replace('http', 'ws')}?id=${token}`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    const received: string[] = [];
    socket.on('message', (data: Buffer) => received.push(data.toString('utf8')));
    const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    const gone = droppedReason(connectionId);
    socket.send(HANDSHAKE);
    await silentPastTimeout(token);
    expect(await gone).toBe('client timeout');
    await closed;
    // It got the server's keep-alive pings all along: the server was talking, the client was not.
    expect(received.join('')).toContain(`{"type":6}${RS}`);
    expect(t.hub.get(token)).toBeUndefined();
    const post = await fetch(`${t.hubUrl}?id=${token}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}` },
      body: `{"type":6}${RS}`,
    });
    expect(post.status).toBe(404);
  });

  it('drops a silent Server-Sent Events client and ends its stream', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const token = String(body?.connectionToken);
    const gone = droppedReason(String(body?.connectionId));
    const response = await fetch(`${t.hubUrl}?id=${token}&access_token=${encodeURIComponent(t.adminToken)}`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    await fetch(`${t.hubUrl}?id=${token}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}` },
      body: HANDSHAKE,
    });
    await silentPastTimeout(token);
    expect(await gone).toBe('client timeout');
    // The stream ends (cut, so the client sees a connection loss and may reconnect).
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true }));
      if (chunk.done) break;
    }
    expect(t.hub.get(token)).toBeUndefined();
  });

  it.each([
    ['WebSockets', HttpTransportType.WebSockets],
    ['Server-Sent Events', HttpTransportType.ServerSentEvents],
  ])('keeps an idle official %s client that pings', async (_name, transport) => {
    const client = hubClient(t, { token: t.adminToken, transport, keepAliveMs: 200 });
    await client.start();
    const id = client.connectionId ?? '';
    expect(t.hub.find(id)).toBeDefined();
    // Idle (no invocation) for three client timeouts of the hub's time: only the client's pings
    // arrive (every 200 ms of real time); after each one the hub's clock moves 500 ms.
    for (let step = 0; step < (3 * CLIENT_TIMEOUT_MS) / 500; step += 1) {
      await until(() => t.hub.find(id)?.lastReceivedAt === clock.now(), 'a ping at the hub');
      await clock.advance(500);
    }
    expect(client.state).toBe(HubConnectionState.Connected);
    expect(t.hub.find(id)?.state).toBe('open');
    expect(await client.invoke('Unsubscribe', 'FuncGPS')).toBe(false);
    await client.stop();
    await until(() => t.hub.find(id) === undefined, 'the stopped connection to go');
  });
});
