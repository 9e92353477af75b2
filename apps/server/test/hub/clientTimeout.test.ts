import { HubConnectionState } from '@microsoft/signalr';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  FAST_HUB,
  HANDSHAKE,
  HttpTransportType,
  RS,
  hubClient,
  negotiate,
  sleep,
  startHubApp,
  until,
} from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// ASP.NET's ClientTimeoutInterval: a WebSocket or SSE client that sends nothing (not even a ping
// record) for clientTimeoutMs is dropped; one that pings, as the official client does, never is.
const CLIENT_TIMEOUT_MS = 1500;
const t = useTestApp(() =>
  startHubApp({ ...FAST_HUB, keepAliveMs: 300, clientTimeoutMs: CLIENT_TIMEOUT_MS, sessionCheckMs: 60_000 }),
);

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
    const silentSince = Date.now();
    socket.send(HANDSHAKE);
    expect(await gone).toBe('client timeout');
    expect(Date.now() - silentSince).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS);
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
    const silentSince = Date.now();
    await fetch(`${t.hubUrl}?id=${token}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}` },
      body: HANDSHAKE,
    });
    expect(await gone).toBe('client timeout');
    expect(Date.now() - silentSince).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS);
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
    // Idle (no invocation) for three client timeouts: only the client's pings arrive.
    await sleep(3 * CLIENT_TIMEOUT_MS);
    expect(client.state).toBe(HubConnectionState.Connected);
    expect(t.hub.find(id)?.state).toBe('open');
    expect(await client.invoke('Unsubscribe', 'FuncGPS')).toBe(false);
    await client.stop();
    await until(() => t.hub.find(id) === undefined, 'the stopped connection to go');
  });
});
