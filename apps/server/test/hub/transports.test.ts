import type { HubConnection as ClientConnection } from '@microsoft/signalr';
import { HubConnectionState } from '@microsoft/signalr';
import { pushMsgSchema, pushNotifySchema, type PushMsg, type PushNotify } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import type { HubConnection } from '../../src/hub/hubConnection.js';
import { GPS_SNAPSHOT, HttpTransportType, hubClient, record, sleep, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// The official @microsoft/signalr client in Node against a listening server (checklist 2, 4-8).
const t = useTestApp(() =>
  startHubApp({
    keepAliveMs: 1000,
    // Long enough for a loaded machine between negotiate, the transport and the handshake: the
    // timeouts themselves are tested in fake time (protocolTimeouts.test.ts).
    handshakeTimeoutMs: 10_000,
    pollTimeoutMs: 2000,
    disconnectTimeoutMs: 10_000,
    pushIntervalMs: 20,
    sessionCheckMs: 60_000,
  }),
);

/** The server side of the client's connection, found by the connection id the client reports. */
function serverSide(client: ClientConnection): HubConnection {
  const found = t.hub.find(client.connectionId ?? '');
  if (!found) throw new Error('no server connection for the client');
  return found;
}

const transports = [
  ['long polling', HttpTransportType.LongPolling, 'LongPolling'],
  ['Server-Sent Events', HttpTransportType.ServerSentEvents, 'ServerSentEvents'],
  ['WebSockets', HttpTransportType.WebSockets, 'WebSockets'],
] as const;

describe.each(transports)('%s only', (_name, transport, kind) => {
  it('starts, invokes with a result, sends without a reply, receives pushes and stops cleanly', async () => {
    const client = hubClient(t, { token: t.adminToken, transport });
    const msgs = record<PushMsg>(client, 'pushMsg');
    const notes = record<PushNotify>(client, 'pushNotify');
    await client.start();
    const server = serverSide(client);
    expect(server.transport).toBe(kind);
    const token = server.connectionToken;

    expect(await client.invoke('FuncGPS')).toEqual({ feed: 'FuncGPS', enterprises: [t.demo.E_ID] });
    // The snapshot is in before the invocation completes.
    expect(msgs.map((m) => m.type)).toEqual(GPS_SNAPSHOT);
    for (const m of msgs) pushMsgSchema.parse(m);

    const completions: unknown[] = [];
    t.hub.on('message', (connection, message) => {
      if (connection === server && message.type === 1) completions.push(message.invocationId);
    });
    await client.send('FuncNotify');
    await until(() => notes.length >= 2, 'the FuncNotify snapshot');
    expect(completions).toEqual([undefined]);
    for (const n of notes) pushNotifySchema.parse(n);

    t.live.reportPosition({
      E_ID: t.demo.E_ID,
      U_ID: 900 + transport,
      Phone: '1390000',
      lat: 30,
      lon: 120,
      time: Date.now(),
    });
    await until(() => msgs.some((m) => m.type === 'GPS'), 'a GPS push');
    const gps = msgs.find((m) => m.type === 'GPS');
    expect(gps?.data).toEqual([expect.objectContaining({ U_ID: 900 + transport, lat: 30, lon: 120 })]);

    const gone = new Promise<string>((resolve) =>
      t.hub.on('disconnected', (connection, reason) => {
        if (connection === server) resolve(reason);
      }),
    );
    await client.stop();
    expect(client.state).toBe(HubConnectionState.Disconnected);
    const reason = await gone;
    if (kind === 'LongPolling') expect(reason).toBe('deleted by the client');
    const afterwards = await fetch(`${t.hubUrl}?id=${token}`, { headers: { authorization: `Bearer ${t.adminToken}` } });
    expect(afterwards.status).toBe(404);
  });
});

describe('WebSockets details', () => {
  it('works with skipNegotiation', async () => {
    const client = hubClient(t, {
      token: t.adminToken,
      transport: HttpTransportType.WebSockets,
      skipNegotiation: true,
    });
    const msgs = record<PushMsg>(client, 'pushMsg');
    await client.start();
    await client.invoke('FuncGPS');
    expect(msgs[0]?.type).toBe('GPSArray');
    await client.stop();
  });
});

describe('fallback', () => {
  it('negotiates again and lands on Server-Sent Events when the WebSocket upgrade is refused', async () => {
    // The refused attempt's connection lives 3 s without a transport: long enough to be seen after the
    // client's second negotiate on a loaded machine (300 ms was not, in CI).
    const refusing = await startHubApp({ disconnectTimeoutMs: 3000, keepAliveMs: 1000 });
    try {
      // A proxy in front that does not pass WebSockets.
      refusing.app.server.removeAllListeners('upgrade');
      refusing.app.server.on('upgrade', (_request, socket) => {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
      const client = hubClient(refusing, { token: refusing.adminToken });
      await client.start();
      const connections = refusing.hub.connections();
      // The connection of the refused attempt waits without a transport; the client negotiated anew.
      expect(connections.map((c) => c.transport).sort()).toEqual([null, 'ServerSentEvents'].sort());
      expect(await client.invoke('FuncNotify')).toMatchObject({ feed: 'FuncNotify' });
      await until(() => refusing.hub.size === 1, 'the abandoned connection to be dropped', 10_000);
      await client.stop();
    } finally {
      await refusing.close();
    }
  });

  it('lands on long polling when only long polling is offered', async () => {
    const lpOnly = await startHubApp({ transports: ['LongPolling'] });
    try {
      const client = hubClient(lpOnly, { token: lpOnly.adminToken });
      await client.start();
      expect(lpOnly.hub.connections().map((c) => c.transport)).toEqual(['LongPolling']);
      await client.stop();
    } finally {
      await lpOnly.close();
    }
  });
});

describe('authentication', () => {
  it.each(transports)('rejects start() with 401 over %s and creates no connection', async (_name, transport) => {
    const before = new Set(t.hub.connections());
    const client = hubClient(t, { token: 'not-a-token', transport });
    await expect(client.start()).rejects.toThrow("Status code '401'");
    await sleep(20);
    expect(t.hub.connections().filter((connection) => !before.has(connection))).toEqual([]);
  });
});
