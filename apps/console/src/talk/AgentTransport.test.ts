import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { TALK_RETRY_MS, talkAgentCommandSchema, VideoCodec } from '@intercom/contract';
import { encodeVideoDown } from '@intercom/terminal-client';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { wsText } from '../../../../packages/terminal-client/test/wsText';
import { AgentTransport } from './AgentTransport';
import { TalkError, type TalkConnection, type TalkVideoFrame, type TransportSink } from './talkTypes';

// The Node build of `ws` (the console project would resolve its browser stub); the server side of the
// agent and, in place of the browser's, the client WebSocket.
// The workspace may hoist ws 7 here (no `WebSocketServer` name, only `Server`) or ws 8.
type WsModule = typeof import('ws') & { Server?: typeof import('ws').WebSocketServer };
const WebSocket = createRequire(import.meta.url)('ws') as WsModule;
const WebSocketServer = WebSocket.WebSocketServer ?? WebSocket.Server!;

beforeAll(() => {
  // The console runs in a browser; here the `ws` client stands in for its WebSocket.
  Object.assign(globalThis, { WebSocket });
});

/** A small talk agent speaking packages/contract/src/talkAgent.ts: validates every command and answers it. */
function fakeAgent(port = 0) {
  const server = new WebSocketServer({ host: '127.0.0.1', port });
  const received: string[] = [];
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const parsed = talkAgentCommandSchema.safeParse(JSON.parse(wsText(data)));
      if (!parsed.success) {
        socket.send(JSON.stringify({ id: JSON.parse(wsText(data)).id, ok: false, code: 'bad_request' }));
        return;
      }
      const command = parsed.data;
      received.push(command.cmd);
      const reply: Record<string, unknown> = { id: command.id, ok: true };
      if (command.cmd === 'Login' && command.AuthCode.startsWith('x')) {
        socket.send(JSON.stringify({ id: command.id, ok: false, code: 'bad_auth_code', message: 'expired' }));
        return;
      }
      if (command.cmd === 'LoginInfo') reply.seat = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 };
      if (command.cmd === 'VideoList') reply.videos = [{ uid: 7, name: 'Patrol 7', codecs: ['h264'] }];
      if (command.cmd === 'PrivateCall') reply.cid = 0x8000_0002;
      if (command.cmd === 'ApplyMic') {
        socket.send(JSON.stringify({ event: 'floorTaken', cid: command.cid, uid: 0, name: 'Admin', priority: 7 }));
      }
      if (command.cmd === 'ApplyVideo') {
        const frame = encodeVideoDown({
          uid: command.uid,
          codec: VideoCodec.jpeg,
          timestamp: 1234,
          payload: new Uint8Array([0xff, 0xd8, 0xff]),
        });
        socket.send(frame);
      }
      socket.send(JSON.stringify(reply));
    });
  });
  return { server, received, port: () => (server.address() as AddressInfo).port };
}

function recordingSink() {
  const connections: TalkConnection[] = [];
  const events: unknown[] = [];
  const frames: TalkVideoFrame[] = [];
  const waiters: Array<() => void> = [];
  const sink: TransportSink = {
    connection: (state) => {
      connections.push(state);
      waiters.splice(0).forEach((wake) => wake());
    },
    event: (event) => events.push(event),
    video: (frame) => frames.push({ ...frame, payload: new Uint8Array(frame.payload) }),
  };
  const until = async (state: TalkConnection, timeoutMs: number) => {
    const started = Date.now();
    while (connections.at(-1) !== state) {
      if (Date.now() - started > timeoutMs)
        throw new Error(`no ${state} within ${timeoutMs} ms: ${connections.join(',')}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return Date.now() - started;
  };
  return { sink, connections, events, frames, until };
}

const LOGIN = {
  proxy: 'http://127.0.0.1:8080',
  partyId: 1,
  account: 'admin',
  authCode: 'k'.repeat(32),
  dispatchNo: 'D3',
};
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((run) => run());
  cleanup = [];
});

/** An agent listening, a transport started on it (the monitor port has nobody) and connected. */
async function connectedToAgent() {
  const agent = fakeAgent();
  await once(agent.server, 'listening');
  const transport = new AgentTransport({ talkPort: agent.port(), monitorPort: 1 });
  const recorded = recordingSink();
  transport.start(recorded.sink);
  cleanup.push(
    () => transport.stop(),
    () => agent.server.close(),
  );
  await recorded.until('connected', 3000);
  return { agent, transport, recorded };
}

describe('AgentTransport against a talk agent on real sockets', () => {
  test('Login is followed by LoginInfo and VideoList; commands, events and video frames follow the contract', async () => {
    const { agent, transport, recorded } = await connectedToAgent();

    const seat = await transport.login(LOGIN);
    expect(seat).toEqual({ dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 });
    expect(agent.received).toEqual(['Login', 'LoginInfo', 'VideoList']);
    expect(recorded.events).toContainEqual({
      event: 'videoOnline',
      video: { uid: 7, name: 'Patrol 7', codecs: ['h264'] },
    });

    await transport.groupCall(42);
    await transport.monitor([5, 6]);
    await transport.applyMic(42);
    await transport.freeMic(42);
    expect(await transport.privateCall(9)).toBe(0x8000_0002);
    await transport.endCall(0x8000_0002);
    await transport.applyVideo(7);
    await transport.freeVideo(7);
    await transport.logout();
    expect(agent.received.slice(3)).toEqual([
      'GroupCall',
      'Monitor',
      'ApplyMic',
      'FreeMic',
      'PrivateCall',
      'EndCall',
      'ApplyVideo',
      'FreeVideo',
      'LogOut',
    ]);
    expect(recorded.events).toContainEqual({ event: 'floorTaken', cid: 42, uid: 0, name: 'Admin', priority: 7 });
    expect(recorded.frames).toHaveLength(1);
    expect(recorded.frames[0]).toMatchObject({ uid: 7, codec: 2, timestamp: 1234 });
    expect([...recorded.frames[0]!.payload]).toEqual([0xff, 0xd8, 0xff]);
  });

  test('a refused command rejects with its code (an expired AuthCode is bad_auth_code)', async () => {
    const { transport } = await connectedToAgent();
    const error = await transport.login({ ...LOGIN, authCode: 'x'.repeat(32) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TalkError);
    expect((error as TalkError).code).toBe('bad_auth_code');
  });

  test('with no agent a command fails at once, and a restarted agent is found again within the 5 s retry', async () => {
    const { agent, transport, recorded } = await connectedToAgent();
    const port = agent.port();
    for (const client of agent.server.clients) client.terminate();
    agent.server.close();
    await recorded.until('disconnected', 3000);
    const error = await transport.groupCall(1).catch((caught: unknown) => caught);
    expect((error as TalkError).code).toBe('server_unreachable');

    const restarted = fakeAgent(port);
    await once(restarted.server, 'listening');
    cleanup.push(() => restarted.server.close());
    const waited = await recorded.until('connected', TALK_RETRY_MS + 2000);
    expect(waited).toBeLessThanOrEqual(TALK_RETRY_MS + 1000);
    await transport.groupCall(1);
    expect(restarted.received).toEqual(['GroupCall']);
  }, 20_000);
});
