// Talk agent figures (issue 13), on loopback against the built server:
// - ApplyMic -> granted: the console's command to the agent until its reply (agent -> /terminal
//   floorRequest -> ack -> reply); what a dispatcher waits between pressing Space and talking. Goal <= 100 ms.
// - mouth-to-ear estimate agent -> terminal: capture of one 20 ms frame + Opus encode + relay (agent ->
//   server -> terminal socket) + the listener's jitter buffer + decode. Goal <= 150 ms (MCPTT KPI3: 300 ms).
//   The listener's jitter buffer and decoder are the agent's own (a terminal app would have its own).
// - the same the other way (terminal -> agent's speaker), and Opus encode time from WASM (source) and
//   asm.js (the bundle).
//   node scripts/build.mjs && npx tsx bench/talkAgent.ts      BENCH_BURSTS (5) of 3 s, BENCH_GRANTS (50)
// The agent, the terminal and the measuring run in this process beside a server process, on a shared
// machine: the figures include this process's scheduling.
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import OpusScript from 'opusscript';
import WebSocket from 'ws';
import { AgentClient } from '@intercom/agent-client';
import { speechPackets } from '../packages/media/src/index.js';
import { decodeAudioDown, encodeAudioUp } from '../packages/terminal-client/src/index.js';
import { startAgent } from '../apps/talk-agent/src/agent.js';
import type { Microphone, Speaker } from '../apps/talk-agent/src/audio/audioBackend.js';
import { OpusDecoder, OpusEncoder } from '../apps/talk-agent/src/audio/opusCodec.js';
import { FRAME_MS, FRAME_SAMPLES } from '../apps/talk-agent/src/audio/pcmFormat.js';
import { Playout } from '../apps/talk-agent/src/audio/playout.js';
import { login } from './support/login.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { BENCH_PASSWORD, percentile, startServer } from './support/startServer.js';
import { TerminalPeer } from './support/terminalPeer.js';

const BURSTS = Number(process.env.BENCH_BURSTS ?? 5);
const GRANTS = Number(process.env.BENCH_GRANTS ?? 50);
const BURST_MS = 3_000;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: percentile(sorted, 100) };
};

/** Real speech as PCM frames (the media fixture, decoded). */
function speechFrames(): Int16Array[] {
  const decoder = new OpusDecoder();
  const frames = speechPackets('unit-three').map((p) => decoder.decode(p));
  decoder.delete();
  return frames;
}

/** A microphone that delivers speech frames every 20 ms and notes when each frame was complete. */
class BenchMicrophone implements Microphone {
  readonly name = 'bench';
  readonly capturedAt = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly frames: Int16Array[]) {}
  start(onFrame: (pcm: Int16Array) => void): void {
    this.capturedAt.clear();
    const started = performance.now();
    let i = 0;
    const tick = () => {
      this.capturedAt.set(i & 0xffff, performance.now());
      onFrame(this.frames[i % this.frames.length]!);
      i += 1;
      this.timer = setTimeout(tick, Math.max(0, started + i * FRAME_MS - performance.now()));
    };
    this.timer = setTimeout(tick, FRAME_MS);
  }
  stop(): void {
    clearTimeout(this.timer);
  }
}

const silentSpeaker: Speaker = { name: 'bench', write() {}, close() {} };

function seedChannel(dataDir: string): number {
  const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  const cid = Number(
    db
      .prepare(
        `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,'AgentBench',106,'',0,0,0,?)`,
      )
      .run(Date.now()).lastInsertRowid,
  );
  const user = db.prepare(`select "UserID" from terminal_user where "MobilePhone" = ?`).get(terminalPhone(0)) as {
    UserID: number;
  };
  db.prepare(`insert into channel_member ("CID","UserID","E_ID","Priority") values (?,?,1,0)`).run(cid, user.UserID);
  db.close();
  return cid;
}

/** The console's side of the talk service on `ws` (packages/agent-client, no reconnect), replies waited for up to 60 s. */
async function openConsole(url: string, origin: string): Promise<AgentClient> {
  const client = new AgentClient({ connect: () => new WebSocket(url, { origin }), timeoutMs: 60_000 });
  client.start();
  await client.opened();
  return client;
}

function encodeTimes(frames: Int16Array[]): { wasm: number; asmjs: number } {
  const wasm = new OpusEncoder();
  const asm = new OpusScript(48_000, 1, OpusScript.Application.VOIP, { wasm: false });
  asm.setBitrate(24_000);
  const time = (encode: (pcm: Int16Array) => void) => {
    for (let i = 0; i < 50; i += 1) encode(frames[i % frames.length]!);
    const started = performance.now();
    for (let i = 0; i < 500; i += 1) encode(frames[i % frames.length]!);
    return Math.round(((performance.now() - started) / 500) * 1000) / 1000;
  };
  const result = {
    wasm: time((pcm) => wasm.encode(pcm)),
    asmjs: time((pcm) => asm.encode(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), FRAME_SAMPLES)),
  };
  wasm.delete();
  asm.delete();
  return result;
}

async function main(): Promise<void> {
  const frames = speechFrames();
  const server = await startServer();
  await seedTerminals({ dataDir: server.dataDir }, 1, 0);
  const cid = seedChannel(server.dataDir);
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  const microphone = new BenchMicrophone(frames);
  const agent = await startAgent(
    { server: server.url, allowOrigins: [server.url], monitorPort: 0, talkPort: 0 },
    { audio: { microphone, speaker: silentSpeaker } },
  );
  try {
    const terminalUrl = `${server.url.replace(/^http/, 'ws')}/terminal`;
    const terminal = await TerminalPeer.open(terminalUrl, { phone: terminalPhone(0), password: SEED_PASSWORD });
    await terminal.request({ type: 'join', cid });
    const console = await openConsole(`ws://127.0.0.1:${agent.talkPort}`, server.url);
    const code = (await (
      await fetch(`${server.url}/api/Talk/AuthCode`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    ).json()) as { BaseData: { authCode: string; dispatchNo: string } };
    const loginReply = await console.request('Login', {
      Proxy: server.url,
      PartyID: 1,
      Uid: 'admin',
      AuthCode: code.BaseData.authCode,
      RecvUid: code.BaseData.dispatchNo,
    });
    if (!loginReply.ok) throw new Error(`Login: ${JSON.stringify(loginReply)}`);
    await console.request('GroupCall', { cid });

    // ApplyMic -> granted.
    const grants: number[] = [];
    for (let i = 0; i < GRANTS; i += 1) {
      const started = performance.now();
      const reply = await console.request('ApplyMic');
      if (!reply.ok) throw new Error(`ApplyMic: ${JSON.stringify(reply)}`);
      grants.push(performance.now() - started);
      await console.request('FreeMic');
      await sleep(20);
    }

    // Agent -> terminal: relay (capture complete -> terminal socket), the listener's jitter buffer, decode.
    const relay: number[] = [];
    const jitterWait: number[] = [];
    const decode: number[] = [];
    const listener = new Playout(silentSpeaker);
    listener.onPlayed = (arrivedAt) => jitterWait.push(performance.now() - arrivedAt);
    const decoder = new OpusDecoder();
    terminal.onFrame = (frame) => {
      const now = performance.now();
      const heard = decodeAudioDown(frame);
      if (!heard) return;
      const captured = microphone.capturedAt.get(heard.seq);
      if (captured !== undefined) relay.push(now - captured);
      listener.push(heard.cid, heard.speaker, heard.seq, heard.opus);
      const started = performance.now();
      decoder.decode(heard.opus);
      decode.push(performance.now() - started);
    };
    for (let b = 0; b < BURSTS; b += 1) {
      await console.request('ApplyMic');
      await sleep(BURST_MS);
      await console.request('FreeMic');
      await sleep(300);
    }
    terminal.onFrame = () => undefined;
    listener.close();
    decoder.delete();

    // Terminal -> agent: the agent's own playout (jitter buffer + decode) after the relay.
    const upRelay: number[] = [];
    const agentWait: number[] = [];
    const sentAt = new Map<number, number>();
    const push = agent.playout.push.bind(agent.playout);
    agent.playout.push = (c, s, seq, packet) => {
      const sent = sentAt.get(seq);
      if (sent !== undefined) upRelay.push(performance.now() - sent);
      push(c, s, seq, packet);
    };
    agent.playout.onPlayed = (arrivedAt) => agentWait.push(performance.now() - arrivedAt);
    const packets = speechPackets('unit-three');
    await terminal.request({ type: 'floorRequest', cid });
    const started = performance.now();
    for (let i = 0; i < packets.length; i += 1) {
      const frame = encodeAudioUp({ cid, seq: i, opus: packets[i]! });
      sentAt.set(i, performance.now());
      terminal.socket.send(frame, { binary: true });
      await sleep(Math.max(0, started + (i + 1) * FRAME_MS - performance.now()));
    }
    await terminal.request({ type: 'floorRelease', cid });
    await sleep(500);

    const encode = encodeTimes(frames);
    const r = stats(relay);
    const j = stats(jitterWait);
    const d = stats(decode);
    const mouthToEar = FRAME_MS + r.p50 + j.p50 + d.p50;
    const result = {
      bench: 'talkAgent',
      loadAverage: os.loadavg().map((v) => Math.round(v * 100) / 100),
      applyMicToGrantedMs: stats(grants),
      agentToTerminal: {
        captureFrameMs: FRAME_MS,
        encodeAndRelayMs: r,
        jitterBufferWaitMs: j,
        decodeMs: d,
        mouthToEarEstimateMs: Math.round(mouthToEar * 10) / 10,
        mouthToEarP95Ms: Math.round((FRAME_MS + r.p95 + j.p95 + d.p95) * 10) / 10,
      },
      terminalToAgent: { relayMs: stats(upRelay), jitterBufferWaitMs: stats(agentWait) },
      opusEncodeMsPerFrame: encode,
      goals: { applyMicToGrantedMs: 100, mouthToEarMs: 150 },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    await console.request('LogOut');
    console.stop();
    terminal.socket.close();
  } finally {
    await agent.close();
    await server.stop();
  }
  log('done');
}

await main();
