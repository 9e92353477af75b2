import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AudioFrame } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SPEECH, channelOf, joinAll, readDown, talk } from '../../server/test/talk/talkFixtures.js';
import type { TerminalTestApp } from '../../server/test/terminals/terminalTestApp.js';
import { startAgent, type Agent } from '../src/agent.js';
import { OpusDecoder } from '../src/audio/opusCodec.js';
import { readWav } from '../src/audio/wavFile.js';
import { PACKAGE_PATH } from '../src/selfUpdate.js';
import { AGENT_VERSION } from '../src/version.js';
import { buildTalkAgent } from '../../../scripts/buildTalkAgent.mjs';
import { AgentClient, loginArgs, sleep, speechWav, startServer, startTestAgent, tempDir } from './agentFixtures.js';

// Agent -> real server -> simulated terminal with WAV files, both ways; and the self-update.
let t: TerminalTestApp;
let agent: Agent;
const dir = tempDir();
const mic = speechWav(dir);
const speakerFile = path.join(dir, 'speaker.wav');
// A throwaway release key: the build signs with it, and the updating agent is told to trust it.
const release = crypto.generateKeyPairSync('ed25519');

beforeAll(async () => {
  await buildTalkAgent(path.join(dir, 'package'), release.privateKey);
  t = await startServer({ TALK_AGENT_DIR: path.join(dir, 'package') });
  agent = await startAgent({
    server: t.origin,
    allowOrigins: [t.origin],
    monitorPort: 0,
    talkPort: 0,
    micFile: mic.file,
    speakerFile,
  });
}, 120_000);
afterAll(async () => {
  await agent?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The bundled script the server hands out, run as an operator runs it; resolves with its talk port. */
async function runBundle(child: { process?: ChildProcess }): Promise<number> {
  const script = path.join(dir, 'package', 'talk-agent.mjs');
  const args = ['--server', t.origin, '--monitor-port', '0', '--talk-port', '0', '--mic-file', mic.file];
  child.process = spawn(process.execPath, [script, ...args, '--speaker-file', path.join(dir, 'bundle.wav')]);
  let output = '';
  child.process.stdout!.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.process.stderr!.on('data', (chunk: Buffer) => (output += String(chunk)));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const port = /talk ws:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
    if (port) return Number(port);
    if (child.process.exitCode !== null || Date.now() > deadline)
      throw new Error(`the bundle did not start: ${output}`);
    await sleep(50);
  }
}

describe('audio through the server', () => {
  it('the bundled agent sends --mic-file to a terminal as Opus that decodes to the file length', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0]);
    await joinAll(members, cid);
    const terminal = members[0]!.terminal;
    const bundle: { process?: ChildProcess } = {};
    onTestFinished(() => void bundle.process?.kill());
    const client = await AgentClient.connect(await runBundle(bundle), t.origin);
    await client.command('Login', await loginArgs(t));
    await client.command('GroupCall', { cid });
    expect(await client.command('ApplyMic')).toMatchObject({ ok: true });
    // The file plays at real time; wait for all of it (plus the relay).
    const deadline = Date.now() + mic.durationMs + 3_000;
    while (terminal.frames.length < mic.durationMs / 20 && Date.now() < deadline) await sleep(20);
    await sleep(200);
    await client.command('FreeMic');
    const decoder = new OpusDecoder();
    let samples = 0;
    for (const frame of terminal.frames) {
      const down = readDown(frame);
      expect(down).toMatchObject({ kind: AudioFrame.kindOpus, cid, speaker: 0 });
      samples += decoder.decode(Buffer.from(down.opus)).length;
    }
    decoder.delete();
    expect((samples / 48_000) * 1000).toBe(mic.durationMs);
    await client.command('LogOut');
    client.close();
  });

  it("a terminal's speech reaches --speaker-file, decoded, at its length", async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0]);
    await joinAll(members, cid);
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    await client.command('Login', await loginArgs(t));
    await client.command('Monitor', { cids: [cid] });
    const start = readWav(speakerFile).length;
    const terminal = members[0]!.terminal;
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'ack' });
    await talk(terminal, cid, SPEECH, 20);
    await terminal.request({ type: 'floorRelease', cid });
    await client.next((m) => m.event === 'floorIdle' && m.cid === cid);
    // Every packet is played, or counted as dropped by the jitter buffer (only after a stall of this
    // busy machine delivered many at once): never more than a few. The playout runs at the pace of
    // speech, so on a loaded machine its last packets reach the file a while after the floor is idle.
    const unaccounted = () =>
      readWav(speakerFile).length - start - (SPEECH.length - agent.playout.packetsDropped) * 960;
    await expect.poll(unaccounted, { timeout: 10_000 }).toBe(0);
    expect(agent.playout.packetsDropped).toBeLessThanOrEqual(SPEECH.length / 10);
    await client.command('LogOut');
    client.close();
  });
});

describe('self-update', () => {
  it("Update fetches the server's signed package, says updating then success, and restarts on the new script", async () => {
    const res = await fetch(`${t.origin}${PACKAGE_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-talk-agent-version')).toBe(AGENT_VERSION);
    expect(res.headers.get('x-talk-agent-signature')).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    const info = await fetch(`${t.origin}/api/Plugin/Info`, { headers: { authorization: `Bearer ${t.adminToken}` } });
    expect(((await info.json()) as { BaseData: unknown }).BaseData).toMatchObject({
      available: true,
      version: AGENT_VERSION,
      url: PACKAGE_PATH,
    });

    const restarted: string[] = [];
    const target = path.join(dir, 'installed', 'talk-agent.mjs');
    const updating = await startTestAgent(
      t,
      {},
      {
        restart: (script) => restarted.push(script),
        updateDir: path.dirname(target),
        updateKeys: [release.publicKey],
      },
    );
    const client = await AgentClient.connect(updating.monitorPort, t.origin);
    expect(await client.command('Update', {}, 60_000)).toMatchObject({ ok: true, version: AGENT_VERSION });
    await client.next((m) => m.event === 'update' && m.state === 'updating');
    expect(await client.next((m) => m.event === 'update' && m.state !== 'updating')).toMatchObject({
      state: 'success',
      version: AGENT_VERSION,
    });
    await expect.poll(() => restarted).toEqual([target]);
    expect(fs.readFileSync(target)).toEqual(fs.readFileSync(path.join(dir, 'package', 'talk-agent.mjs')));
    client.close();
    await updating.close();
  });

  it('Update says failed when the server has no package', async () => {
    const bare = await startServer({ TALK_AGENT_DIR: path.join(dir, 'nothing-here') });
    const lonely = await startTestAgent(bare, {}, { restart: () => expect.fail('must not restart') });
    const client = await AgentClient.connect(lonely.monitorPort, bare.origin);
    expect(await client.command('Update')).toMatchObject({ ok: false, code: 'update_unavailable' });
    expect(await client.next((m) => m.event === 'update' && m.state !== 'updating')).toMatchObject({
      state: 'failed',
      code: 'update_unavailable',
    });
    client.close();
    await lonely.close();
    await bare.close();
  });
});
