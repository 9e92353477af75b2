import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sleep } from '../hub/hubTestApp.js';
import { scrapeMetrics } from '../metricsScrape.js';
import { startScaleOut } from '../terminals/scaleOutApps.js';
import { TERMINAL_PASSWORD } from '../terminals/terminalTestApp.js';
import { channelAcross } from './scaleOutChannel.js';
import { SPEECH, TALK_TERMINALS, isType } from './talkFixtures.js';
import { useTestApp } from '../useTestApp.js';

// Two instances on the real Redis (and PostgreSQL in the PostgreSQL pass) with the production floor
// timings: lease, renewal step, talk tick, silence (2 s). A talker keeps its floor through a 2 s
// stall of its instance's event loop (docs/decisions.md, "Floor leases survive a stall").
const s = useTestApp(() => startScaleOut(TALK_TERMINALS));
const here = path.dirname(fileURLToPath(import.meta.url));

/** Blocks this process's event loop (both instances and their terminals share it) for `ms`. */
function stallEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A terminal talking from a process of its own (talkerProcess.mjs): its frames keep arriving while
 * this process stalls, as a real terminal's do. Resolves with the message types it was sent.
 */
function talkFromOutside(url: string, phone: string, cid: number, packets: number): Promise<string[]> {
  const child = spawn(process.execPath, [path.join(here, 'talkerProcess.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const speech = Array.from({ length: packets }, (_, i) => (SPEECH[i % SPEECH.length] as Buffer).toString('base64'));
  child.stdin.end(`${JSON.stringify({ url, phone, password: TERMINAL_PASSWORD, cid, packets: speech, gapMs: 20 })}\n`);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0
        ? resolve((JSON.parse(output) as { received: string[] }).received)
        : reject(new Error(`talker exited ${code}`)),
    ),
  );
}

describe('a floor and a stalled event loop', () => {
  it('a talker on A keeps the floor through a 2 s stall of its instance; the listener on B hears it all and one floorIdle, at the end', async () => {
    const { cid, members } = await channelAcross(s, [{ on: 'a' }, { on: 'b' }]);
    const [talker, listener] = members;
    if (!talker || !listener) throw new Error('two members');
    // The talker speaks from another process: its in-process terminal steps aside.
    talker.terminal.close();
    await talker.terminal.closed;

    const PACKETS = 200; // 4 s of speech
    const talked = talkFromOutside(s.a.terminalUrl, talker.phone, cid, PACKETS);
    await listener.terminal.next(isType('floorTaken', { cid, uid: talker.U_ID }));
    await sleep(1_000);
    stallEventLoop(2_000);
    const sent = await talked;
    await listener.terminal.next(isType('floorIdle', { cid }));

    expect(sent).not.toContain('floorRevoked');
    const { arrivals, frames } = listener.terminal;
    // Where each message other than a frame came, and the last frame: a second floorIdle says when.
    const order = JSON.stringify({
      others: arrivals.flatMap((type, i) => (type === 'frame' ? [] : [`${i}:${type}`])),
      lastFrame: arrivals.lastIndexOf('frame'),
    });
    expect(
      arrivals.filter((type) => type === 'floorIdle'),
      order,
    ).toHaveLength(1);
    // The floor stayed taken until the talker released it, after its last frame.
    expect(arrivals.lastIndexOf('frame')).toBeLessThan(arrivals.indexOf('floorIdle'));
    // The frames sent during the stall were relayed after it, not dropped as a lost floor's.
    expect(frames.length).toBeGreaterThanOrEqual(PACKETS * 0.9);

    // The stall shows on /metrics: one renewal more than 1 s late.
    const metrics = await scrapeMetrics(s.a.origin);
    const late = /intercom_talk_lease_renew_late_seconds_bucket\{le="1"\} (\d+)[\s\S]*?_count (\d+)/.exec(metrics);
    expect(late, 'the lateness histogram').not.toBeNull();
    expect(Number(late?.[2])).toBeGreaterThan(Number(late?.[1]));
    listener.terminal.close();
  });
});
