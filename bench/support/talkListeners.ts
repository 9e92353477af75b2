// One client process of bench/talk.ts: `count` listeners of one channel, logged in over /terminal
// (listener i on urls[i % urls.length]), joined to `cid`. Prints {"ready":true} once all joined; then
// reads one line from stdin: the talker's send times (epoch ms, by seq), and prints the latency
// histogram and the frames received. Run by the bench, not by hand.
import readline from 'node:readline';
import WebSocket from 'ws';
import { decodeAudioDown } from '../../packages/terminal-client/src/index.js';
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
/** Text arrives as a string and isBinary is undefined under the ws major the benches resolve (7). */
const binary = (data: Buffer | string, isBinary?: boolean) => isBinary ?? typeof data !== 'string';
/** Receive time of each frame (by seq) of each listener: count x frames, epoch ms. */
const received = new Float64Array(args.count * args.frames);
let delivered = 0;

function open(i: number): Promise<WebSocket> {
  const socket = new WebSocket(args.urls[i % args.urls.length] as string);
  let seq = 0;
  const request = (message: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      seq += 1;
      const mine = seq;
      const onText = (data: Buffer | string, isBinary?: boolean) => {
        if (binary(data, isBinary)) return;
        const reply = JSON.parse(String(data)) as Record<string, unknown>;
        if (reply.seq !== mine) return;
        socket.off('message', onText);
        resolve(reply);
      };
      socket.on('message', onText);
      socket.send(JSON.stringify({ ...message, seq: mine }));
    });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      socket.on('message', (data: Buffer | string, isBinary?: boolean) => {
        if (!binary(data, isBinary)) return;
        const s = decodeAudioDown(data as Buffer)?.seq;
        if (s !== undefined && s < args.frames) received[(i - args.first) * args.frames + s] = now();
        delivered += 1;
      });
      void (async () => {
        const login = await request({ type: 'login', phone: terminalPhone(i), password: SEED_PASSWORD });
        if (login.type !== 'ack') return reject(new Error(`login refused: ${JSON.stringify(login)}`));
        const join = await request({ type: 'join', cid: args.cid });
        if (join.type !== 'ack') return reject(new Error(`join refused: ${JSON.stringify(join)}`));
        resolve(socket);
      })();
    });
  });
}

const sockets: WebSocket[] = [];
for (let i = args.first; i < args.first + args.count; i += 25) {
  const batch = Array.from({ length: Math.min(25, args.first + args.count - i) }, (_, k) => open(i + k));
  sockets.push(...(await Promise.all(batch)));
}
// Silent listeners: a heartbeat keeps them within the server's timeout.
const heartbeat = setInterval(() => {
  for (const s of sockets) s.send(JSON.stringify({ seq: 0, type: 'heartbeat' }));
}, 20_000);
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
  clearInterval(heartbeat);
  for (const s of sockets) s.terminate();
  process.stdout.write(`${JSON.stringify({ delivered, histogram: histogram.toJSON() })}\n`);
  lines.close();
});
