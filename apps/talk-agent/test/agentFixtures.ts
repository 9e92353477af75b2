import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { speechPackets } from '@intercom/media';
import WebSocket from 'ws';
import { AgentClient as ProtocolClient } from '@intercom/agent-client';
import { FAST_HUB, sleep } from '../../server/test/hub/hubTestApp.js';
import { FAST_TERMINALS, startTerminalApp, type TerminalTestApp } from '../../server/test/terminals/terminalTestApp.js';
import { FAST_TALK } from '../../server/test/talk/talkFixtures.js';
import { startAgent, type Agent, type AgentHooks } from '../src/agent.js';
import { OpusDecoder } from '../src/audio/opusCodec.js';
import { writeWav } from '../src/audio/wavFile.js';

export { sleep };

/**
 * A real server (SQLite or TEST_DATABASE_URL) with the test floor timings, but room for a 2 s phrase
 * and the production's 2 s silence limit: a busy machine may stall a talker for longer than 400 ms.
 */
export function startServer(env: Record<string, string> = {}): Promise<TerminalTestApp> {
  const talk = { ...FAST_TALK, floor: { ...FAST_TALK.floor, maxTalkMs: 10_000, silenceMs: 2_000 } };
  return startTerminalApp({ ...FAST_TERMINALS, heartbeatTimeoutMs: 30_000 }, FAST_HUB, env, { talk });
}

/** The agent on free ports, allowing the server's origin (and `extra`). */
export function startTestAgent(
  t: TerminalTestApp,
  files: { micFile?: string; speakerFile?: string } = {},
  hooks: AgentHooks = {},
): Promise<Agent> {
  return startAgent(
    { server: t.origin, allowOrigins: [t.origin], monitorPort: 0, talkPort: 0, ...files },
    {
      audio: hooks.audio ?? { microphone: undefined, speaker: { name: 'test', write() {}, close() {} } },
      log: () => undefined,
      ...hooks,
    },
  );
}

export type AgentMessage = Record<string, unknown> & {
  id?: number | null;
  ok?: boolean;
  code?: string;
  event?: string;
};

/**
 * A console's connection to one of the agent's services: packages/agent-client's client on a `ws`
 * socket (no reconnect), with every message and video frame kept for the test to look through.
 */
export class AgentClient {
  readonly messages: AgentMessage[] = [];
  readonly frames: Uint8Array[] = [];
  private readonly client: ProtocolClient;

  private constructor(readonly socket: WebSocket) {
    this.client = new ProtocolClient({ connect: () => socket, timeoutMs: 8_000 });
    this.client.on('message', (message) => this.messages.push(message as AgentMessage));
    this.client.on('frame', (bytes) => this.frames.push(bytes));
    this.client.start();
  }

  /** Opens ws://127.0.0.1:port with `origin`; rejects with the HTTP status when refused. */
  static connect(port: number, origin: string): Promise<AgentClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin });
    const client = new AgentClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  sendText(text: string): void {
    this.socket.send(text);
  }

  /** The reply to `{cmd, id, ...args}`, refused or not. */
  command(cmd: string, args: Record<string, unknown> = {}, timeoutMs?: number): Promise<AgentMessage> {
    return this.client.request(cmd, args, timeoutMs);
  }

  async next(match: (m: AgentMessage) => boolean, timeoutMs = 8_000): Promise<AgentMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(this.messages.slice(-5))}`);
      await sleep(5);
    }
  }

  close(): void {
    this.client.stop();
  }
}

/** A fresh AuthCode of the signed-in account (POST /api/Talk/AuthCode). */
export async function authCode(t: TerminalTestApp): Promise<{ authCode: string; dispatchNo: string }> {
  const res = await fetch(`${t.origin}/api/Talk/AuthCode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminToken}` },
  });
  return ((await res.json()) as { BaseData: { authCode: string; dispatchNo: string } }).BaseData;
}

/** The Login command's payload (SPEC.md 3) for a fresh code. */
export async function loginArgs(t: TerminalTestApp): Promise<Record<string, unknown>> {
  const code = await authCode(t);
  return {
    Proxy: t.origin,
    PartyID: t.demo.E_ID,
    Uid: t.demo.username,
    AuthCode: code.authCode,
    RecvUid: code.dispatchNo,
  };
}

/** A 48 kHz WAV of real speech (the media fixture decoded), and its length in ms. */
export function speechWav(dir: string): { file: string; durationMs: number } {
  const decoder = new OpusDecoder();
  const packets = speechPackets('unit-three');
  const pcm = new Int16Array(packets.length * 960);
  packets.forEach((p, i) => pcm.set(decoder.decode(p), i * 960));
  decoder.delete();
  const file = path.join(dir, 'mic.wav');
  writeWav(file, pcm);
  return { file, durationMs: packets.length * 20 };
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'talk-agent-'));
}
