import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RS, negotiate, rawLongPolling, records, startHubApp, tenant, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// Raw HTTP and WebSocket checks of notes/signalr-protocol.md: what the official client hides. The
// protocol's timers (poll, handshake and disconnect timeouts) are in protocolTimeouts.test.ts, in fake time.
const t = useTestApp(() =>
  startHubApp({
    keepAliveMs: 1000,
    // Long enough for a loaded machine between negotiate, the transport and the handshake (the
    // timeouts themselves are protocolTimeouts.test.ts's, in fake time), and well above the poll
    // timeout: with both at 300 ms the handshake timer and a held poll raced (CI saw 204 for 200).
    handshakeTimeoutMs: 10_000,
    pollTimeoutMs: 300,
    disconnectTimeoutMs: 10_000,
    pushIntervalMs: 20,
    sessionCheckMs: 60_000,
  }),
);
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;

/** Until the server holds a poll of this long-polling connection (not a fixed sleep: CI's load varies). */
async function pollHeld(id: string): Promise<void> {
  await until(() => (t.hub.get(id)?.sink as { polling?: boolean } | null)?.polling === true, 'a held poll');
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe('negotiate', () => {
  it('answers v1 with exactly 200, a public id, a distinct URL-safe token and the transport list', async () => {
    const response = await fetch(`${t.hubUrl}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { ...auth(t.adminToken), 'x-requested-with': 'XMLHttpRequest' },
      body: '',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      connectionId: expect.any(String),
      connectionToken: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      negotiateVersion: 1,
      availableTransports: [
        { transport: 'WebSockets', transferFormats: ['Text', 'Binary'] },
        { transport: 'ServerSentEvents', transferFormats: ['Text'] },
        { transport: 'LongPolling', transferFormats: ['Text', 'Binary'] },
      ],
    });
    expect(body.connectionToken).not.toBe(body.connectionId);
    expect(t.hub.get(String(body.connectionToken))?.connectionId).toBe(body.connectionId);
  });

  it('answers v0 without a version, and its own maximum to a higher one', async () => {
    const v0 = await negotiate(t, t.adminToken, '');
    expect(v0.status).toBe(200);
    expect(v0.body).toMatchObject({ negotiateVersion: 0, connectionId: expect.any(String) });
    expect(v0.body).not.toHaveProperty('connectionToken');
    // In v0 the id is the token: the client polls with connectionId.
    expect(t.hub.get(String(v0.body?.connectionId))).toBeDefined();
    const v9 = await negotiate(t, t.adminToken, '?negotiateVersion=9');
    expect(v9.body).toMatchObject({ negotiateVersion: 1 });
  });

  it('refuses GET with 405', async () => {
    const response = await fetch(`${t.hubUrl}/negotiate?negotiateVersion=1`, { headers: auth(t.adminToken) });
    expect(response.status).toBe(405);
  });

  it('answers 401 to a missing, unknown or ended token and creates nothing', async () => {
    const before = new Set(t.hub.connections());
    expect((await negotiate(t, undefined)).status).toBe(401);
    expect((await negotiate(t, 'not-a-token')).status).toBe(401);
    const other = await tenant(t);
    await fetch(`${t.origin}/api/Account/Logout`, { method: 'POST', headers: auth(other.token) });
    expect((await negotiate(t, other.token)).status).toBe(401);
    expect(t.hub.connections().filter((connection) => !before.has(connection))).toEqual([]);
  });

  it('answers 429 once a session holds the most connections allowed', async () => {
    const capped = await startHubApp({ maxConnectionsPerSession: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await negotiate(capped, capped.adminToken)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // Another session of another account is not affected.
      const other = await tenant(capped);
      expect((await negotiate(capped, other.token)).status).toBe(200);
    } finally {
      await capped.close();
    }
  });

  it('accepts the token as access_token in the query', async () => {
    const response = await fetch(
      `${t.hubUrl}/negotiate?negotiateVersion=1&access_token=${encodeURIComponent(t.adminToken)}`,
      { method: 'POST' },
    );
    expect(response.status).toBe(200);
  });
});

describe('long polling by hand', () => {
  it('answers 401 without a token, 403 to another user, 400 without id and 404 to an unknown id', async () => {
    // The other tenant first: an id not polled for FAST_HUB's 1 s is forgotten (404), and making a
    // tenant takes longer than that on a loaded machine.
    const other = await tenant(t);
    const lp = await rawLongPolling(t, t.adminToken);
    expect((await fetch(lp.url)).status).toBe(401);
    expect((await fetch(lp.url, { method: 'POST', body: HANDSHAKE })).status).toBe(401);
    expect((await fetch(lp.url, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(lp.url, { headers: auth(other.token) })).status).toBe(403);
    expect((await fetch(t.hubUrl, { headers: auth(t.adminToken) })).status).toBe(400);
    expect((await fetch(`${t.hubUrl}?id=nope`, { headers: auth(t.adminToken) })).status).toBe(404);
    expect(
      (await fetch(`${t.hubUrl}?id=nope`, { method: 'POST', headers: auth(t.adminToken), body: 'x' })).status,
    ).toBe(404);
    await lp.remove();
  });

  it('handshakes, processes every record of one POST and ends every payload on the record separator', async () => {
    const lp = await rawLongPolling(t, t.adminToken);
    expect(await lp.connect()).toBe(`{}${RS}`);
    const batch = [
      { type: 1, target: 'FuncNotify', arguments: [], invocationId: 'a' },
      { type: 6 },
      { type: 1, target: 'NoSuchMethod', arguments: [], invocationId: 'b' },
      { type: 1, target: 'FuncGPS', arguments: [] },
      { type: 1, target: 'Unsubscribe', arguments: ['FuncNotify'], invocationId: 'c' },
    ]
      .map((message) => JSON.stringify(message) + RS)
      .join('');
    expect((await lp.send(batch)).status).toBe(200);
    const seen: Record<string, unknown>[] = [];
    while (!seen.some((message) => message.invocationId === 'c')) seen.push(...records(await (await lp.poll()).text()));
    const completions = seen.filter((message) => message.type === 3);
    expect(completions).toEqual([
      { type: 3, invocationId: 'a', result: { feed: 'FuncNotify', enterprises: [t.demo.E_ID] } },
      { type: 3, invocationId: 'b', error: "Unknown hub method 'NoSuchMethod'" },
      { type: 3, invocationId: 'c', result: true },
    ]);
    const targets = seen.filter((message) => message.type === 1).map((message) => message.target);
    expect(targets).toContain('pushNotify');
    expect(targets).toContain('pushMsg');
    await lp.remove();
  });

  it('ends an older held poll with 204 when a newer one arrives', async () => {
    const lp = await rawLongPolling(t, t.adminToken);
    await lp.connect();
    const older = lp.poll();
    await pollHeld(lp.id);
    const newer = lp.poll();
    expect((await older).status).toBe(204);
    await lp.remove();
    expect((await newer).status).toBe(204);
  });

  it('DELETE answers 202, ends the held poll with 204 and forgets the id; a late Close POST gets 404', async () => {
    const lp = await rawLongPolling(t, t.adminToken);
    await lp.connect();
    const held = lp.poll();
    await pollHeld(lp.id);
    const removed = await lp.remove();
    expect(removed.status).toBe(202);
    expect((await held).status).toBe(204);
    expect((await lp.poll()).status).toBe(404);
    expect((await lp.send(`{"type":7}${RS}`)).status).toBe(404);
    expect(t.hub.get(lp.id)).toBeUndefined();
  });
});

describe('Server-Sent Events by hand', () => {
  it('opens with ":\\r\\n" and frames each payload as data lines', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const id = String(body?.connectionToken);
    const abort = new AbortController();
    const response = await fetch(`${t.hubUrl}?id=${id}&access_token=${encodeURIComponent(t.adminToken)}`, {
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (expected: string) => {
      while (!received.includes(expected)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('stream ended');
        received += decoder.decode(chunk.value);
      }
    };
    await readUntil(':\r\n');
    expect(received.startsWith(':\r\n')).toBe(true);
    const send = (text: string) =>
      fetch(`${t.hubUrl}?id=${id}`, { method: 'POST', headers: auth(t.adminToken), body: text });
    await send(HANDSHAKE);
    await readUntil(`data: {}${RS}\r\n\r\n`);
    await send(`{"type":1,"target":"FuncNotify","arguments":[],"invocationId":"1"}${RS}`);
    await readUntil('"invocationId":"1"');
    const events = received.slice(3).split('\r\n\r\n').filter(Boolean);
    for (const event of events) {
      expect(event.startsWith('data: ')).toBe(true);
      expect(event.endsWith(RS)).toBe(true);
    }
    // A second stream for the same id is refused.
    const second = await fetch(`${t.hubUrl}?id=${id}`, {
      headers: { ...auth(t.adminToken), accept: 'text/event-stream' },
    });
    expect(second.status).toBe(409);
    abort.abort();
    await until(() => t.hub.get(id) === undefined, 'the stream to be disposed');
  });
});

describe('WebSockets by hand', () => {
  const wsUrl = () => t.hubUrl.replace(/^http/, 'ws');

  function open(url: string, headers: Record<string, string> = {}) {
    const socket = new WebSocket(url, { headers });
    const messages: string[] = [];
    // binaryType is 'nodebuffer' (the default), so each message arrives as one Buffer.
    socket.on('message', (data) => messages.push((data as Buffer).toString('utf8')));
    const opened = new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_request, response) => reject(new Error(`status ${response.statusCode}`)));
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    return { socket, messages, opened, closed };
  }

  it('answers an unknown id with 404 and a second socket for one id with 409, before upgrading', async () => {
    await expect(open(`${wsUrl()}?id=nope`, auth(t.adminToken)).opened).rejects.toThrow('status 404');
    await expect(open(`${wsUrl()}?id=nope`).opened).rejects.toThrow('status 401');
    const { body } = await negotiate(t, t.adminToken);
    const url = `${wsUrl()}?id=${String(body?.connectionToken)}`;
    const first = open(url, auth(t.adminToken));
    await first.opened;
    await expect(open(url, auth(t.adminToken)).opened).rejects.toThrow('status 409');
    first.socket.close();
    await first.closed;
  });

  it('accepts the token as a header or as access_token, and a connection without negotiate', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const byQuery = open(
      `${wsUrl()}?id=${String(body?.connectionToken)}&access_token=${encodeURIComponent(t.adminToken)}`,
    );
    await byQuery.opened;
    byQuery.socket.send(HANDSHAKE);
    await until(() => byQuery.messages.includes(`{}${RS}`), 'handshake answer');
    byQuery.socket.close();
    const skipped = open(wsUrl(), auth(t.adminToken));
    await skipped.opened;
    skipped.socket.send(HANDSHAKE + `{"type":1,"target":"FuncGPS","arguments":[],"invocationId":"7"}${RS}`);
    await until(() => skipped.messages.some((m) => m.includes('"invocationId":"7"')), 'completion');
    skipped.socket.close();
    await skipped.closed;
  });

  it('answers an unsupported protocol with an error record and closes', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const client = open(`${wsUrl()}?id=${String(body?.connectionToken)}`, auth(t.adminToken));
    await client.opened;
    client.socket.send(`{"protocol":"foo","version":1}${RS}`);
    expect(await client.closed).toBe(1000);
    expect(client.messages.join('')).toBe(`{"error":"The protocol 'foo' is not supported."}${RS}`);
  });

  it('closes a connection that sends something that is not the hub protocol', async () => {
    const client = open(wsUrl(), auth(t.adminToken));
    await client.opened;
    client.socket.send(HANDSHAKE + `{"type":1,"target":42}${RS}`);
    await client.closed;
    expect(client.messages.join('')).toBe(`{}${RS}{"type":7,"error":"Invalid message"}${RS}`);
  });
});
