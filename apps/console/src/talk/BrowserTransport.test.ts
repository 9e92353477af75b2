import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { VideoCodec, terminalClientMessageSchema, type TalkAgentEvent } from '@intercom/contract';
import { encodeVideoDown } from '@intercom/terminal-client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { wsText } from '../../../../packages/terminal-client/test/wsText';
import { BrowserTransport } from './BrowserTransport';
import { type TalkConnection, type TalkVideoFrame } from './talkTypes';

// The Node build of `ws` stands in for the browser's WebSocket (as in AgentTransport.test.ts).
type WsModule = typeof import('ws').WebSocket & {
  WebSocketServer?: typeof import('ws').WebSocketServer;
  Server?: typeof import('ws').WebSocketServer;
};
const WebSocket = createRequire(import.meta.url)('ws') as WsModule;
const WebSocketServer = WebSocket.WebSocketServer ?? WebSocket.Server!;

/** The transport of these tests: `ws` for the browser's WebSocket, no audio. */
function transportTo(url: string, retryMs?: number): BrowserTransport {
  return new BrowserTransport({
    url,
    retryMs,
    openSocket: (address) => new WebSocket(address),
    createAudio: () => Promise.reject(new Error('no audio in this test')),
  });
}

const SEAT = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 };

/**
 * `/terminal` as the server answers a dispatcher seat (apps/server/src/video/videoService.ts): every
 * message checked against the contract's schema; videoList, videoApply's `{uid, codec, name}` ack,
 * `no_video` for an unknown terminal, and a kind-2 frame of the applied terminal.
 */
async function fakeServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const sockets: import('ws').WebSocket[] = [];
  const received: string[] = [];
  server.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (data) => {
      const message = terminalClientMessageSchema.parse(JSON.parse(wsText(data)));
      received.push(message.type);
      const ack = (fields: Record<string, unknown> = {}) =>
        socket.send(JSON.stringify({ type: 'ack', seq: message.seq, ...fields }));
      switch (message.type) {
        case 'login':
          return ack({ seat: SEAT });
        case 'videoList':
          return ack({ videos: [{ uid: 7, name: 'Patrol 7', codecs: ['jpeg'] }] });
        case 'videoApply': {
          if (message.uid !== 7) {
            socket.send(JSON.stringify({ type: 'error', seq: message.seq, code: 'no_video', message: 'none' }));
            return;
          }
          ack({ uid: 7, codec: 'jpeg', name: 'Patrol 7' });
          const frame = encodeVideoDown({
            uid: 7,
            codec: VideoCodec.jpeg,
            timestamp: 1234,
            payload: new Uint8Array([0xff, 0xd8, 0xff]),
          });
          socket.send(frame);
          // An empty binary message is nobody's frame: ignored, not a crash.
          socket.send(Buffer.alloc(0));
          return;
        }
        case 'logout':
          // As the server does: the ack, then the close.
          ack();
          socket.close(1000);
          return;
        case 'call':
        case 'channels':
        case 'checkIn':
        case 'floorRelease':
        case 'floorRequest':
        case 'hangup':
        case 'heartbeat':
        case 'heartRate':
        case 'join':
        case 'leave':
        case 'manDown':
        case 'position':
        case 'positions':
        case 'sos':
        case 'status':
        case 'videoCaps':
        case 'videoFree':
          return ack();
      }
    });
  });
  return { server, sockets, received, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/terminal` };
}

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((run) => run());
  cleanup = [];
});

/** A transport started against a new fake server and connected; both are stopped after the test. */
async function connectedTransport(retryMs?: number) {
  const server = await fakeServer();
  const transport = transportTo(server.url, retryMs);
  const connections: TalkConnection[] = [];
  const events: TalkAgentEvent[] = [];
  transport.start({
    connection: (state) => connections.push(state),
    event: (event) => events.push(event),
    video: () => undefined,
  });
  cleanup.push(
    () => transport.stop(),
    () => server.server.close(),
  );
  await vi.waitFor(() => expect(connections.at(-1)).toBe('connected'));
  return { server, transport, connections, events };
}

describe('BrowserTransport video', () => {
  test('login brings the video list; online/offline pushes keep it; apply is acked and frames arrive', async () => {
    const server = await fakeServer();
    const transport = transportTo(server.url);
    const connections: TalkConnection[] = [];
    const events: TalkAgentEvent[] = [];
    const frames: TalkVideoFrame[] = [];
    transport.start({
      connection: (state) => connections.push(state),
      event: (event) => events.push(event),
      video: (frame) => frames.push({ ...frame, payload: new Uint8Array(frame.payload) }),
    });
    cleanup.push(
      () => transport.stop(),
      () => server.server.close(),
    );
    await vi.waitFor(() => expect(connections.at(-1)).toBe('connected'));

    const seat = await transport.login({
      proxy: 'http://127.0.0.1',
      partyId: 1,
      account: 'admin',
      authCode: 'k'.repeat(32),
      dispatchNo: 'D3',
    });
    expect(seat).toEqual(SEAT);
    expect(server.received).toEqual(['login', 'videoList']);
    expect(events).toEqual([{ event: 'videoOnline', video: { uid: 7, name: 'Patrol 7', codecs: ['jpeg'] } }]);

    // The server's flat pushes arrive in the agent's event shapes.
    const socket = server.sockets[0]!;
    socket.send(JSON.stringify({ type: 'videoOnline', uid: 8, name: 'Gate', codecs: ['h264', 'jpeg'] }));
    socket.send(JSON.stringify({ type: 'videoOffline', uid: 8 }));
    await vi.waitFor(() => expect(events).toHaveLength(3));
    expect(events.slice(1)).toEqual([
      { event: 'videoOnline', video: { uid: 8, name: 'Gate', codecs: ['h264', 'jpeg'] } },
      { event: 'videoOffline', uid: 8 },
    ]);

    await transport.applyVideo(7);
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    expect(frames[0]).toMatchObject({ uid: 7, codec: 2, timestamp: 1234 });
    expect([...frames[0]!.payload]).toEqual([0xff, 0xd8, 0xff]);
    await expect(transport.applyVideo(9)).rejects.toMatchObject({ name: 'TalkError', code: 'no_video' });
    await transport.freeVideo(7);
    expect(server.received.slice(2)).toEqual(['videoApply', 'videoApply', 'videoFree']);
  });
});

describe('BrowserTransport seat end', () => {
  test.each([
    [4001, 'replaced'],
    [4002, 'session_end'],
  ] as const)('a close with %i is told as loggedOut %s, so the seat is not asked for again', async (code, reason) => {
    const { server, transport, connections, events } = await connectedTransport();
    await transport.login({
      proxy: 'http://127.0.0.1',
      partyId: 1,
      account: 'admin',
      authCode: 'k'.repeat(32),
      dispatchNo: 'D3',
    });
    server.sockets[0]!.close(code, reason === 'replaced' ? 'replaced' : 'logout');
    await vi.waitFor(() => expect(connections.at(-1)).toBe('disconnected'));
    expect(events.filter((e) => e.event === 'loggedOut')).toEqual([{ event: 'loggedOut', reason }]);
  });

  test('a lost connection (no seat close code) is no logout: the seat comes back', async () => {
    const { server, connections, events } = await connectedTransport(200);
    server.sockets[0]!.terminate();
    await vi.waitFor(() => expect(connections).toContain('disconnected'));
    expect(events.some((e) => e.event === 'loggedOut')).toBe(false);
    // The transport dials again after its retry delay: a second socket reaches the server.
    await vi.waitFor(() => expect(server.sockets).toHaveLength(2));
    await vi.waitFor(() => expect(connections.at(-1)).toBe('connected'));
  });
});

describe('BrowserTransport logout', () => {
  test('after a logout the tab logs in again on a new socket, and the console sees no drop', async () => {
    const { server, transport, connections, events } = await connectedTransport();
    const login = {
      proxy: 'http://127.0.0.1',
      partyId: 1,
      account: 'admin',
      authCode: 'k'.repeat(32),
      dispatchNo: 'D3',
    };
    await transport.login(login);
    await transport.logout();
    expect(events.filter((e) => e.event === 'loggedOut')).toEqual([{ event: 'loggedOut', reason: 'logout' }]);
    expect(await transport.login(login)).toEqual(SEAT);
    expect(server.received).toEqual(['login', 'videoList', 'logout', 'login', 'videoList']);
    expect(connections).toEqual(['connecting', 'connected']);
  });
});
