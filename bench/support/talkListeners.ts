// One client process of bench/talk.ts: `count` listeners of one channel, logged in over /terminal
// (listener i on urls[i % urls.length]), joined to `cid`. Prints {"ready":true} once all joined; then
// reads one line from stdin: the talker's send times (epoch ms, by seq), and prints the latency
// histogram and the frames received. Run by the bench, not by hand.
import readline from 'node:readline';
import WebSocket from 'ws';
import { TerminalSocket, decodeAudioDown } from '../../packages/terminal-client/src/index.js';
import { SEED_PASSWORD, terminalPhone } from './seedTerminals.js';
import { LatencyHistogram } from './latencyHistogram.js';

interface Args {
  urls: string[];
  first: number;
  count: number;
  cid: number;
  frames: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const now = () => performance.timeOrigin + performance.now();
/** Receive time of each frame (by seq) of each listener: count x frames, epoch ms. */
const received = new Float64Array(args.count * args.frames);
let delivered = 0;
/** Silent listeners: a heartbeat keeps them within the server's timeout. */
const HEARTBEAT_MS = 20_000;

/** Listener i: logged in, joined, noting when each frame arrives; rejects on a refusal. */
async function open(i: number): Promise<WebSocket> {
  const socket = new WebSocket(args.urls[i % args.urls.length] as string);
  const client = new TerminalSocket({ connect: () => socket, heartbeatMs: HEARTBEAT_MS, requestTimeoutMs: 60_000 });
  client.on('frame', (frame) => {
    const s = decodeAudioDown(frame)?.seq;
    if (s !== undefined && s < args.frames) received[(i - args.first) * args.frames + s] = now();
    delivered += 1;
  });
  await client.opened();
  await client.login({ phone: terminalPhone(i), password: SEED_PASSWORD });
  await client.request({ type: 'join', cid: args.cid });
  return socket;
}

const sockets: WebSocket[] = [];
for (let i = args.first; i < args.first + args.count; i += 25) {
  const batch = Array.from({ length: Math.min(25, args.first + args.count - i) }, (_, k) => open(i + k));
  sockets.push(...(await Promise.all(batch)));
}
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const lines = readline.createInterface({ input: process.stdin });
lines.once('line', (line) => {
  const sent = JSON.parse(line) as number[];
  const histogram = new LatencyHistogram();
  for (let l = 0; l < args.count; l += 1) {
    for (let s = 0; s < args.frames; s += 1) {
      const at = received[l * args.frames + s] as number;
      const from = sent[s];
      if (at > 0 && from !== undefined && from > 0) histogram.add(at - from);
    }
  }
  // The close stops each listener's heartbeats.
  for (const socket of sockets) socket.terminate();
  process.stdout.write(`${JSON.stringify({ delivered, histogram: histogram.toJSON() })}\n`);
  lines.close();
});
