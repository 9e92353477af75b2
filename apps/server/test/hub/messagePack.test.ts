import { MessageType, NullLogger, type HubMessage } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import { GpsBlockReader, HubCloseErrors, unpackOnlineUsers, type OnlineUser, type PushMsg } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { frameMessage, messagePackFrame } from '../../src/hub/messagePackProtocol.js';
import { FAST_HUB, HttpTransportType, hubClient, negotiate, record, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// SignalR's MessagePack hub protocol against the official client (@microsoft/signalr-protocol-msgpack).
const t = useTestApp(() => startHubApp({ ...FAST_HUB, pushIntervalMs: 20, sessionCheckMs: 60_000 }));

const binaryTransports = [
  ['long polling', HttpTransportType.LongPolling],
  ['WebSockets', HttpTransportType.WebSockets],
] as const;

describe.each(binaryTransports)('the official MessagePack client over %s', (_name, transport) => {
  it('starts, invokes with a result and an error, receives the snapshot and pushes, and stops', async () => {
    const client = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const msgs = record<PushMsg>(client, 'pushMsg');
    await client.start();
    const server = t.hub.find(client.connectionId ?? '');
    expect(server?.wire.protocol).toBe('messagepack');

    expect(await client.invoke('FuncGPS')).toEqual({ feed: 'FuncGPS', enterprises: [t.demo.E_ID] });
    expect(msgs.map((m) => m.type)).toEqual([
      'GPSBlock',
      'NumOnlineUser',
      'OnlineUser',
      'Notifys',
      'HeartRate',
      'Videos',
    ]);
    await expect(client.invoke('NoSuchMethod')).rejects.toThrow("Unknown hub method 'NoSuchMethod'");
    expect(await client.invoke('Unsubscribe', 'FuncGPS')).toBe(true);
    await client.stop();
  });
});

describe.each(binaryTransports)('positions to a MessagePack client over %s', (_name, transport) => {
  it('arrive as GPS blocks: the snapshot with every user, then only what moved, slow fields when they change', async () => {
    const U_ID = 7000 + transport;
    const E_ID = t.demo.E_ID;
    const base = { E_ID, U_ID, Phone: `139${U_ID}`, UserName: `Mover${U_ID}` };
    t.live.reportPosition({ ...base, lat: 30, lon: 120, time: Date.now() - 1000, speed: 5, course: 90 });
    const client = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const msgs = record<{ type: string; data: unknown }>(client, 'pushMsg');
    await client.start();
    await client.invoke('FuncGPS');
    expect(msgs.map((m) => m.type)).not.toContain('GPSArray');
    const reader = new GpsBlockReader();
    const snapshot = reader.read(msgs.find((m) => m.type === 'GPSBlock')?.data);
    expect(snapshot.full).toBe(true);
    expect(snapshot.records).toContainEqual(
      expect.objectContaining({ ...base, lat: 30, lon: 120, speed: 5, course: 90, gpsOnline: true }),
    );

    const moves = () => msgs.filter((m) => m.type === 'GPSBlock').slice(1);
    t.live.reportPosition({ ...base, lat: 30.5, lon: 120.5, time: Date.now(), speed: 6, course: 91 });
    await until(() => moves().length > 0, 'a GPS block push');
    expect(msgs.map((m) => m.type)).not.toContain('GPS');
    const moved = moves()[0]!.data as { users: { U_ID: number[] } };
    expect(moved.users.U_ID).toEqual([]);
    expect(reader.read(moved).records).toEqual([expect.objectContaining({ ...base, lat: 30.5, lon: 120.5, speed: 6 })]);

    t.live.reportStatus({ ...base, battery: 42 });
    await until(() => moves().length > 1, 'a GPS block with the new battery');
    const status = moves()[1]!.data as { users: { U_ID: number[] } };
    expect(status.users.U_ID).toEqual([U_ID]);
    expect(reader.read(status).records).toEqual([expect.objectContaining({ ...base, lat: 30.5, battery: 42 })]);
    await client.stop();
  });

  it('arrive as GPS block items of a stream too', async () => {
    const client = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    await client.start();
    const items: { type: string; data: unknown }[] = [];
    const subscription = client.stream('FuncGPS').subscribe({
      next: (item: { type: string; data: unknown }) => items.push(item),
      error: () => undefined,
      complete: () => undefined,
    });
    await until(() => items.some((item) => item.type === 'GPSBlock'), 'the snapshot block');
    const U_ID = 7100 + transport;
    t.live.reportPosition({ E_ID: t.demo.E_ID, U_ID, Phone: '1', UserName: 'S', lat: 1, lon: 2, time: Date.now() });
    await until(() => items.filter((item) => item.type === 'GPSBlock').length > 1, 'a block item');
    const last = items.filter((item) => item.type === 'GPSBlock').at(-1);
    expect(new GpsBlockReader().read(last?.data).records).toEqual([expect.objectContaining({ U_ID, lat: 1, lon: 2 })]);
    subscription.dispose();
    await client.stop();
  });
});

describe.each(binaryTransports)('packed snapshots to a MessagePack client over %s', (_name, transport) => {
  it('FuncGPS with { packed: true } gets its full block packed, the deltas as before', async () => {
    const E_ID = t.demo.E_ID;
    const users = Array.from({ length: 200 }, (_, i) => 7200 + transport * 1000 + i);
    for (const U_ID of users) {
      const fix = { lat: 30 + U_ID / 1e5, lon: 120, time: Date.now() - 1000, speed: 5, course: 90 };
      t.live.reportPosition({ E_ID, U_ID, Phone: `139${U_ID}`, UserName: `Packed${U_ID}`, ...fix });
    }
    const plain = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const packed = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const plainMsgs = record<{ type: string; data: Record<string, unknown> }>(plain, 'pushMsg');
    const packedMsgs = record<{ type: string; data: Record<string, unknown> }>(packed, 'pushMsg');
    await Promise.all([plain.start(), packed.start()]);
    await plain.invoke('FuncGPS');
    expect(await packed.invoke('FuncGPS', { packed: true })).toEqual({ feed: 'FuncGPS', enterprises: [E_ID] });

    const plainSnapshot = plainMsgs.find((m) => m.type === 'GPSBlock')!.data;
    const packedSnapshot = packedMsgs.find((m) => m.type === 'GPSBlock')!.data;
    expect(Object.keys(packedSnapshot).sort()).toEqual(['full', 'packed']);
    expect(packedSnapshot.packed).toBeInstanceOf(Uint8Array);
    const plainBytes = (plainSnapshot.block as Uint8Array).length + (plainSnapshot.users as { U_ID: [] }).U_ID.length;
    expect((packedSnapshot.packed as Uint8Array).length).toBeLessThan(plainBytes);
    const read = new GpsBlockReader().read(packedSnapshot);
    expect(read).toEqual(new GpsBlockReader().read(plainSnapshot));
    expect(read.records.map((r) => r.U_ID)).toEqual(expect.arrayContaining(users));

    // A move afterwards is a plain delta for both.
    const moved = users[0]!;
    t.live.reportPosition({
      E_ID,
      U_ID: moved,
      Phone: `139${moved}`,
      UserName: `Packed${moved}`,
      lat: 31,
      lon: 121,
      time: Date.now(),
    });
    const deltas = (msgs: typeof plainMsgs) => msgs.filter((m) => m.type === 'GPSBlock').slice(1);
    await until(() => deltas(packedMsgs).length > 0 && deltas(plainMsgs).length > 0, 'a delta to each');
    expect(deltas(packedMsgs)[0]!.data).toMatchObject({ full: false, block: expect.any(Uint8Array) });
    expect(deltas(packedMsgs)[0]!.data).toEqual(deltas(plainMsgs)[0]!.data);
    await Promise.all([plain.stop(), packed.stop()]);
  });

  it('FuncGPS and FuncNotify with { packed: true } get the online users packed: the same users and count', async () => {
    const E_ID = t.demo.E_ID;
    const users = Array.from({ length: 120 }, (_, i) => 8200 + transport * 1000 + i);
    for (const U_ID of users)
      t.live.setOnline({ E_ID, U_ID, Phone: `138${U_ID}`, UserName: `Online ${U_ID} 名` }, true);
    const plain = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const packed = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    type Message = { type: string; data: unknown };
    const [plainMsgs, plainNotifies] = [record<Message>(plain, 'pushMsg'), record<Message>(plain, 'pushNotify')];
    const [packedMsgs, packedNotifies] = [record<Message>(packed, 'pushMsg'), record<Message>(packed, 'pushNotify')];
    await Promise.all([plain.start(), packed.start()]);
    await plain.invoke('FuncGPS');
    await plain.invoke('FuncNotify');
    await packed.invoke('FuncGPS', { packed: true });
    expect(await packed.invoke('FuncNotify', { packed: true })).toEqual({ feed: 'FuncNotify', enterprises: [E_ID] });

    expect(packedMsgs.map((m) => m.type)).toEqual([
      'GPSBlock',
      'NumOnlineUser',
      'OnlineBlock',
      'Notifys',
      'HeartRate',
      'Videos',
    ]);
    expect(packedNotifies.map((m) => m.type)).toEqual(['OnlineBlock', 'Notifys']);
    const plainUsers = plainMsgs.find((m) => m.type === 'OnlineUser')!.data as OnlineUser[];
    const plainOnline = plainNotifies.find((m) => m.type === 'Online')!.data as { count: number; users: OnlineUser[] };
    expect(plainUsers.map((u) => u.U_ID)).toEqual(expect.arrayContaining(users));
    const fromMsg = unpackOnlineUsers(packedMsgs.find((m) => m.type === 'OnlineBlock')!.data);
    const fromNotify = unpackOnlineUsers(packedNotifies.find((m) => m.type === 'OnlineBlock')!.data);
    expect(fromMsg.users).toEqual(plainUsers);
    expect(fromNotify).toEqual(plainOnline);
    // Smaller than the plain list: the whole point.
    const packedBytes = (packedMsgs.find((m) => m.type === 'OnlineBlock')!.data as { packed: Uint8Array }).packed
      .length;
    expect(packedBytes).toBeLessThan(
      new MessagePackHubProtocol().writeMessage({
        type: MessageType.Invocation,
        target: 'pushMsg',
        arguments: [plainUsers],
      }).byteLength / 2,
    );

    // A user going offline afterwards is a plain delta for both.
    t.live.setOnline({ E_ID, U_ID: users[0]!, Phone: `138${users[0]}`, UserName: `Online ${users[0]} 名` }, false);
    const change = (notifies: Message[]) => notifies.find((m) => m.type === 'OnlineChange');
    await until(() => change(packedNotifies) !== undefined && change(plainNotifies) !== undefined, 'a change to each');
    expect(change(packedNotifies)).toEqual(change(plainNotifies));
    await Promise.all([plain.stop(), packed.stop()]);
  });

  it('FuncNotify refuses options that are not { packed: boolean }', async () => {
    const client = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const notifies = record<{ type: string }>(client, 'pushNotify');
    await client.start();
    await expect(client.invoke('FuncNotify', { packed: 1 })).rejects.toThrow(
      'FuncNotify takes its options as { packed: boolean }.',
    );
    expect(notifies).toEqual([]);
    expect(await client.invoke('FuncNotify')).toMatchObject({ feed: 'FuncNotify' });
    expect(notifies[0]).toMatchObject({ type: 'Online' });
    await client.stop();
  });

  it.each([
    ['an unknown option', { pack: true }],
    ['a packed that is no boolean', { packed: 'yes' }],
  ])('refuses %s, subscribes nothing, and the connection carries on', async (_case, options) => {
    const client = hubClient(t, { token: t.adminToken, transport, protocol: new MessagePackHubProtocol() });
    const msgs = record<{ type: string }>(client, 'pushMsg');
    await client.start();
    await expect(client.invoke('FuncGPS', options)).rejects.toThrow(
      'FuncGPS takes its options as { packed: boolean }.',
    );
    expect(msgs).toEqual([]);
    expect(await client.invoke('FuncGPS')).toMatchObject({ feed: 'FuncGPS' });
    expect(msgs[0]).toMatchObject({ type: 'GPSBlock', data: { full: true } });
    await client.stop();
  });
});

describe('negotiation', () => {
  it('offers Binary on WebSockets and long polling, never on Server-Sent Events', async () => {
    const { body } = await negotiate(t, t.adminToken);
    expect(body?.availableTransports).toEqual([
      { transport: 'WebSockets', transferFormats: ['Text', 'Binary'] },
      { transport: 'ServerSentEvents', transferFormats: ['Text'] },
      { transport: 'LongPolling', transferFormats: ['Text', 'Binary'] },
    ]);
  });

  it('the official client cannot use MessagePack over Server-Sent Events only', async () => {
    const client = hubClient(t, {
      token: t.adminToken,
      transport: HttpTransportType.ServerSentEvents,
      protocol: new MessagePackHubProtocol(),
    });
    await expect(client.start()).rejects.toThrow();
  });

  it('a raw client asking for messagepack over Server-Sent Events gets a handshake error', async () => {
    const { body } = await negotiate(t, t.adminToken);
    const url = `${t.hubUrl}?id=${String(body?.connectionToken)}`;
    const headers = { authorization: `Bearer ${t.adminToken}` };
    const events = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    const reader = events.body!.getReader();
    await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' },
      body: '{"protocol":"messagepack","version":1}\u001e',
    });
    let text = '';
    while (!text.includes('"error"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain("does not support 'Binary'");
  });
});

/** A raw WebSocket that shook hands in MessagePack: what it receives, decoded by the official protocol. */
async function rawMessagePackSocket() {
  const url = `${t.hubUrl.replace(/^http/, 'ws')}?access_token=${t.adminToken}`;
  const socket = new WebSocket(url);
  const received: HubMessage[] = [];
  const protocol = new MessagePackHubProtocol();
  let handshaken = false;
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('message', (data: Buffer) => {
    let bytes = new Uint8Array(data);
    if (!handshaken) {
      expect(new TextDecoder().decode(bytes.subarray(0, 3))).toBe('{}\u001e');
      handshaken = true;
      bytes = bytes.subarray(3);
    }
    if (bytes.length > 0) received.push(...protocol.parseMessages(bytes.slice().buffer, NullLogger.instance));
  });
  await new Promise((resolve, reject) => socket.on('open', resolve).on('error', reject));
  socket.send('{"protocol":"messagepack","version":1}\u001e');
  await until(() => handshaken, 'the handshake answer');
  return { socket, received, closed };
}

describe('bad input closes the connection with an error; the server carries on', () => {
  const bad: [string, Uint8Array][] = [
    ['a malformed MessagePack payload', frameMessage(new Uint8Array([0xc1, 0x00]))],
    // The prefix says 9 bytes; 2 follow.
    ['a length prefix longer than the frame', new Uint8Array([0x09, 0x91, 0x06])],
    ['a length prefix of 6 bytes', new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x91, 0x06])],
    ['an unknown message type', messagePackFrame([99])],
    ['an invocation without a target', messagePackFrame([MessageType.Invocation, {}, '1', 12, []])],
    ['a message that is not an array', frameMessage(new Uint8Array([0x06]))],
  ];

  it.each(bad)('%s', async (_name, bytes) => {
    const { socket, received, closed } = await rawMessagePackSocket();
    socket.send(bytes);
    await closed;
    expect(received.at(-1)).toMatchObject({ type: MessageType.Close, error: HubCloseErrors.protocolError });

    const client = hubClient(t, { token: t.adminToken, protocol: new MessagePackHubProtocol() });
    await client.start();
    expect(await client.invoke('FuncNotify')).toMatchObject({ feed: 'FuncNotify' });
    await client.stop();
  });

  it('a well-formed ping keeps the connection', async () => {
    const { socket, closed } = await rawMessagePackSocket();
    socket.send(messagePackFrame([MessageType.Ping]));
    socket.send(messagePackFrame([MessageType.Invocation, {}, null, 'FuncNotify', []]));
    const connection = () => t.hub.connections().find((c) => c.wire.protocol === 'messagepack');
    await until(() => connection()?.handshaken === true, 'the connection');
    expect(connection()?.state).toBe('open');
    socket.close();
    await closed;
  });
});
