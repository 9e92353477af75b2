// Browser talk figures (issue 13): the console alone as the dispatcher seat (WebCodecs Opus,
// AudioWorklet, `/terminal`), in Debian's Chromium with a fake microphone fed from an espeak-ng WAV,
// against the built server and a terminal in the channel on a real WebSocket.
//   node scripts/build.mjs && npx tsx bench/talkBrowser.ts
// Prints
// - Space -> floor granted: from the keydown event in the page to the `granted` ack arriving in the
//   page (the console's handler, the floor request, the server, the ack), first press (the microphone
//   and encoder open first) and warm presses;
// - the mouth-to-ear estimate browser -> terminal: the capture frame (20 ms) + the audio input's
//   buffer (AudioContext.baseLatency) + Opus's look-ahead (6.5 ms) + Opus encode (WebCodecs, measured) + relay (the page's send of
//   each frame to the terminal's receipt, same clock) + a 40 ms jitter buffer (the console's own
//   prebuffer) + Opus decode (WebCodecs, measured).
// BENCH_PRESSES (20). Everything runs on one machine shared with other work: the figures include it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchChannelMembers, createBenchChannel } from './support/benchChannel.js';
import { login } from './support/login.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { BENCH_PASSWORD, startServer } from './support/startServer.js';
import { TerminalPeer } from './support/terminalPeer.js';
import { CODEC_TIMES, HOLD_MS, PRESSES, speechWavIn, talkLines, type CodecTimes } from './support/browserTalk.js';
import { decodeAudioDown, decodeAudioUp } from '../packages/terminal-client/src/index.js';
import { fakeMicrophoneArgs, launchBrowser } from '../e2e/support/chromium.js';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The names of the figures this bench prints. */
const FIGURES = {
  press: 'Space -> floor granted',
  first: 'first press',
  relay: 'browser send -> terminal receive',
  ends: 'browser -> terminal',
};

/**
 * In the page: timestamps of each Space keydown, each granted ack and each binary frame sent, kept
 * whole (the console allocates each frame, so no copy is needed) and decoded here afterwards.
 */
const PAGE_MARKS = `
  const marks = { keydown: [], granted: [], sent: [] };
  window.talkMarks = marks;
  const now = () => performance.timeOrigin + performance.now();
  window.addEventListener('keydown', (event) => { if (event.code === 'Space' && !event.repeat) marks.keydown.push(now()); }, true);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).endsWith('/terminal')) return;
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('"granted":true')) marks.granted.push(now());
      });
    }
    send(data) {
      if (data instanceof Uint8Array) marks.sent.push([now(), data]);
      super.send(data);
    }
  };
`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'talk-bench-'));
const wav = speechWavIn(work, 'Unit three, this is dispatch, proceed to the north gate.');

const server = await startServer();
await seedTerminals({ dataDir: server.dataDir }, 1, 0);
const [UserID] = benchChannelMembers(server.dataDir, [terminalPhone(0)]);
const cid = createBenchChannel(server.dataDir, 'BenchTalk', [UserID!]);

// The terminal: joined, noting when each of the seat's frames (by seq) arrives, on the wall clock the page also reads.
const arrivals = new Map<number, number>();
const terminal = await TerminalPeer.open(`${server.url.replace(/^http/, 'ws')}/terminal`, {
  phone: terminalPhone(0),
  password: SEED_PASSWORD,
});
terminal.onFrame = (frame, at) => {
  const heard = decodeAudioDown(frame);
  if (heard) arrivals.set(heard.seq, at);
};
await terminal.request({ type: 'join', cid });

const browser = await launchBrowser({ args: fakeMicrophoneArgs(wav) });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  await context.addCookies([{ name: 'function_access_token', value: token, url: server.url, sameSite: 'Strict' }]);
  const page = await context.newPage();
  // Timestamps inside the page: each Space keydown, each granted ack, and each audio frame sent (by seq).
  // Plain text, not a function: tsx would wrap a function's inner names in helpers the page lacks.
  await page.addInitScript({ content: PAGE_MARKS });
  await page.goto(`${server.url}/Channel/cmember?cid=${cid}`);
  await page.getByTestId('talk-toggle').click();
  await page.getByTestId('talk-use-browser').click();
  await page.getByTestId('talk-connection').getByText('Connected').waitFor();
  await page.getByRole('button', { name: 'Group call BenchTalk' }).click();
  await page.getByTestId('talk-current').waitFor();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  const grants: number[] = [];
  const relays: number[] = [];
  for (let press = 0; press < PRESSES; press += 1) {
    arrivals.clear();
    await page.evaluate(() => {
      (window as unknown as { talkMarks: { sent: unknown[] } }).talkMarks.sent.length = 0;
    });
    await page.keyboard.down('Space');
    await page.waitForFunction(
      (n) => (window as unknown as { talkMarks: { granted: number[] } }).talkMarks.granted.length > n,
      press,
    );
    await sleep(HOLD_MS);
    await page.keyboard.up('Space');
    await sleep(300);
    const marks = await page.evaluate<{ keydown: number; granted: number; sent: Array<[number, number[]]> }>(
      '({ keydown: window.talkMarks.keydown.at(-1), granted: window.talkMarks.granted.at(-1), sent: window.talkMarks.sent.map(([at, data]) => [at, Array.from(data)]) })',
    );
    grants.push(marks.granted - marks.keydown);
    for (const [sentAt, bytes] of marks.sent) {
      const sent = decodeAudioUp(Uint8Array.from(bytes));
      const arrived = sent ? arrivals.get(sent.seq) : undefined;
      if (arrived !== undefined) relays.push(arrived - sentAt);
    }
  }

  // WebCodecs Opus encode and decode time per 20 ms packet, with the console's settings.
  const codec = await page.evaluate<CodecTimes>(CODEC_TIMES);

  const lines = talkLines(browser.version(), FIGURES, grants, relays, codec);
  for (const line of lines) process.stdout.write(`${line}\n`);
} finally {
  await browser.close();
  terminal.socket.close();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
log('done');
