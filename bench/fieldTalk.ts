// Field app talk figures (issue 49): two field apps (apps/field, served at /field) signed in as two
// terminal users of one channel, in Debian's Chromium with a fake microphone fed from an espeak-ng
// WAV, against the built server.
//   node scripts/build.mjs && npx tsx bench/fieldTalk.ts
// Prints
// - press -> first frame sent: from the pointerdown on `Push to talk` to the first audio frame the
//   page hands its WebSocket (the floor request, the server's grant, the encoder's first packet),
//   with the microphone already open (warm presses; the first press, which opens it, apart);
// - the mouth-to-ear estimate field -> field: the capture frame (20 ms) + the audio input's buffer
//   (AudioContext.baseLatency) + Opus's look-ahead (6.5 ms) + Opus encode (WebCodecs, measured) + relay
//   (phone A's send of each frame to phone B's receipt, one clock: same machine) + the 40 ms jitter
//   buffer prebuffer (packages/browser-audio) + Opus decode (WebCodecs, measured).
// BENCH_PRESSES (20). Everything runs on one machine shared with other work: the figures include it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { benchChannelMembers, createBenchChannel } from './support/benchChannel.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { startServer } from './support/startServer.js';
import { CODEC_TIMES, HOLD_MS, PRESSES, speechWavIn, talkLines, type CodecTimes } from './support/browserTalk.js';
import { decodeAudioDown, decodeAudioUp } from '../packages/terminal-client/src/index.js';
import { fakeMicrophoneArgs, launchBrowser } from '../e2e/support/chromium.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The names of the figures this bench prints. */
const FIGURES = {
  press: 'press -> first frame sent',
  first: 'first press (opens the microphone)',
  relay: 'phone A send -> phone B receive',
  ends: 'field -> field',
};

/**
 * In a field page: when the talk button is pressed, and every audio frame sent and received with
 * the time (epoch ms, the same clock in both pages). Plain text: tsx would wrap a function's names.
 */
const PAGE_MARKS = `
  const marks = { pressed: [], sent: [], received: [] };
  window.talkMarks = marks;
  const now = () => performance.timeOrigin + performance.now();
  window.addEventListener('pointerdown', (event) => {
    if (event.target instanceof Element && event.target.closest('[data-ptt]')) marks.pressed.push(now());
  }, true);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        if (event.data instanceof ArrayBuffer) marks.received.push([now(), Array.from(new Uint8Array(event.data, 0, 11))]);
      });
    }
    send(data) {
      if (data instanceof Uint8Array) marks.sent.push([now(), Array.from(data.subarray(0, 7))]);
      super.send(data);
    }
  };
`;

type Marks = { pressed: number[]; sent: [number, number[]][]; received: [number, number[]][] };
const readMarks = (page: Page) => page.evaluate<Marks>('window.talkMarks');
const clearMarks = (page: Page) =>
  page.evaluate(
    'window.talkMarks.pressed.length = window.talkMarks.sent.length = window.talkMarks.received.length = 0',
  );

async function fieldPage(browser: Browser, url: string, phone: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.addInitScript({ content: PAGE_MARKS });
  await page.goto(`${url}/field`);
  await page.getByLabel('Phone').fill(phone);
  await page.getByLabel('Password').fill(SEED_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('BenchField: nobody is talking').waitFor({ timeout: 20_000 });
  return page;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'field-talk-bench-'));
const wav = speechWavIn(work, 'Field unit two at the north gate, the road is clear.');

const server = await startServer();
await seedTerminals({ dataDir: server.dataDir }, 2, 0);
createBenchChannel(
  server.dataDir,
  'BenchField',
  benchChannelMembers(server.dataDir, [terminalPhone(0), terminalPhone(1)]),
);

const browser = await launchBrowser({ args: fakeMicrophoneArgs(wav) });
try {
  const a = await fieldPage(browser, server.url, terminalPhone(0));
  const b = await fieldPage(browser, server.url, terminalPhone(1));
  const button = a.getByRole('button', { name: 'Push to talk', exact: true });
  await button.hover();
  const firstFrames: number[] = [];
  const relays: number[] = [];
  for (let press = 0; press < PRESSES; press += 1) {
    await Promise.all([clearMarks(a), clearMarks(b)]);
    await a.mouse.down();
    await a.waitForFunction(() => (window as unknown as { talkMarks: Marks }).talkMarks.sent.length > 0, undefined, {
      timeout: 10_000,
    });
    await sleep(HOLD_MS);
    await a.mouse.up();
    await sleep(400);
    const [sent, heard] = [await readMarks(a), await readMarks(b)];
    firstFrames.push(sent.sent[0]![0] - sent.pressed[0]!);
    const arrivals = new Map<number, number>();
    for (const [at, header] of heard.received) {
      const frame = decodeAudioDown(Uint8Array.from([...header, 0xf8]));
      if (frame) arrivals.set(frame.seq, at);
    }
    for (const [at, header] of sent.sent) {
      const frame = decodeAudioUp(Uint8Array.from([...header, 0xf8]));
      const arrived = frame ? arrivals.get(frame.seq) : undefined;
      if (arrived !== undefined) relays.push(arrived - at);
    }
    // Idle between presses, as a person would be (and the floor's 2 s silence rule never comes in).
    await sleep(300);
  }
  const codec = await a.evaluate<CodecTimes>(CODEC_TIMES);
  const lines = talkLines(browser.version(), FIGURES, firstFrames, relays, codec);
  for (const line of lines) process.stdout.write(`${line}\n`);
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
process.stderr.write('[bench] done\n');
