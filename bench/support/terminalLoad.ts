// Load generator, run as its own process by bench/ingest.ts:
//   tsx bench/support/terminalLoad.ts '<json options>'
// Logs `count` seeded terminals in over /terminal and pipelines position fixes: as fast as the
// acks allow (rate 0, at most `window` unacknowledged per terminal) or at `rate` fixes a second in
// total. `seconds` 0 with `idle`: log in, then only heartbeat until SIGTERM. Prints one JSON line.
import WebSocket from 'ws';
import { Histogram } from './hubClients.js';
import { SEED_PASSWORD, terminalPhone } from './seedTerminals.js';

interface LoadOptions {
  url: string;
  first: number;
  count: number;
  window: number;
  rate: number;
  seconds: number;
  idle?: boolean;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
let acked = 0;
let sent = 0;
let loggedIn = 0;
const errors = new Map<string, number>();
const perSecond: number[] = [];
/** Send-to-ack milliseconds of the fixes acknowledged while running (the ack means stored). */
const ackLatency = new Histogram();
let running = false;

class Terminal {
  private socket: WebSocket;
  private loggedIn = false;
  private closed = false;
  private seq = 0;
  private inFlight = 0;
  private lastTime = 0;
  private lat = 22.5 + Math.random() * 0.1;
  private readonly lon = 114 + Math.random() * 0.1;
  /** Fixes owed in paced mode. */
  credit = 0;
  private pausedUntil = 0;
  private readonly sentAt = new Map<number, number>();

  constructor(readonly phone: string) {
    this.socket = this.connect();
  }

  /**
   * Opens the socket and logs in. A socket that closes before its login was answered (a handshake
   * timed out on a busy machine) tries again a little later, as a real terminal would.
   */
  private connect(): WebSocket {
    const socket = new WebSocket(`${options.url.replace(/^http/, 'ws')}/terminal`);
    socket.on('open', () => this.send({ type: 'login', phone: this.phone, password: SEED_PASSWORD }));
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.loggedIn || this.closed) return;
      setTimeout(
        () => {
          if (this.closed) return;
          this.seq = 0;
          this.inFlight = 0;
          this.socket = this.connect();
        },
        1000 + Math.random() * 2000,
      );
    });
    return socket;
  }

  private send(message: Record<string, unknown>): void {
    this.seq += 1;
    this.socket.send(JSON.stringify({ seq: this.seq, ...message }));
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as { type: string; seq: number; code?: string; config?: unknown };
    if (message.type === 'ack' && message.config) {
      this.loggedIn = true;
      loggedIn += 1;
      return;
    }
    if (message.seq > 1) this.inFlight -= 1;
    const sentAt = this.sentAt.get(message.seq);
    this.sentAt.delete(message.seq);
    if (message.type === 'ack' && message.seq > 1) {
      if (running) acked += 1;
      if (running && sentAt !== undefined) ackLatency.add(performance.now() - sentAt);
    } else if (message.type === 'error') {
      errors.set(message.code ?? '?', (errors.get(message.code ?? '?') ?? 0) + 1);
      // As a real terminal would: wait as long as the server asks before sending again.
      const wait = (message as { retryAfterMs?: number }).retryAfterMs;
      if (wait) {
        this.pausedUntil = Date.now() + wait;
        setTimeout(() => this.pump(), wait);
      }
    }
    this.pump();
  }

  /** Sends while the window allows (and, paced, while credit is left). */
  pump(): void {
    if (!running || this.socket.readyState !== WebSocket.OPEN || Date.now() < this.pausedUntil) return;
    while (this.inFlight < options.window && (options.rate === 0 || this.credit >= 1)) {
      if (options.rate > 0) this.credit -= 1;
      // Strictly increasing fix times; the console measures its latency against this stamp.
      const time = Math.max(Date.now(), this.lastTime + 1);
      this.lastTime = time;
      this.lat += 0.00001;
      this.inFlight += 1;
      sent += 1;
      this.sentAt.set(this.seq + 1, performance.now());
      this.send({ type: 'position', lat: this.lat, lon: this.lon, time, speed: 30, course: 0 });
    }
  }

  heartbeat(): void {
    if (this.socket.readyState === WebSocket.OPEN) this.send({ type: 'heartbeat' });
  }

  close(): void {
    this.closed = true;
    this.socket.terminate();
  }
}

const terminals: Terminal[] = [];
for (let i = 0; i < options.count; i++) {
  terminals.push(new Terminal(terminalPhone(options.first + i)));
  if (i % 50 === 49) await new Promise((r) => setTimeout(r, 20));
}
for (let waited = 0; loggedIn < options.count && waited < 60_000; waited += 50)
  await new Promise((r) => setTimeout(r, 50));
process.stderr.write(`load: ${loggedIn}/${options.count} terminals logged in\n`);

if (options.idle) {
  const beat = setInterval(() => terminals.forEach((t) => t.heartbeat()), 20_000);
  process.stdout.write(`${JSON.stringify({ loggedIn })}\n`);
  process.on('SIGTERM', () => {
    clearInterval(beat);
    terminals.forEach((t) => t.close());
    process.exit(0);
  });
} else {
  running = true;
  const started = Date.now();
  let last = acked;
  const tick = options.rate > 0 ? 20 : 0;
  const pacer = tick
    ? setInterval(() => {
        const share = (options.rate * tick) / 1000 / terminals.length;
        for (const t of terminals) {
          t.credit = Math.min(t.credit + share, options.window);
          t.pump();
        }
      }, tick)
    : undefined;
  if (!pacer) terminals.forEach((t) => t.pump());
  const meter = setInterval(() => {
    perSecond.push(acked - last);
    last = acked;
  }, 1000);
  await new Promise((r) => setTimeout(r, options.seconds * 1000));
  running = false;
  clearInterval(meter);
  clearInterval(pacer);
  const elapsed = (Date.now() - started) / 1000;
  // Let the last acks arrive before closing, so the count matches what the server took.
  await new Promise((r) => setTimeout(r, 1000));
  terminals.forEach((t) => t.close());
  process.stdout.write(
    `${JSON.stringify({ loggedIn, sent, acked, seconds: elapsed, ackedPerSecond: Math.round(acked / elapsed), perSecond, ackP50Ms: ackLatency.percentile(50), ackP99Ms: ackLatency.percentile(99), errors: Object.fromEntries(errors) })}\n`,
  );
  process.exit(0);
}
