// Load generator, run as its own process by bench/ingest.ts:
//   tsx bench/support/terminalLoad.ts '<json options>'
// Logs `count` seeded terminals in over /terminal and pipelines position fixes: as fast as the
// acks allow (rate 0, at most `window` unacknowledged per terminal) or at `rate` fixes a second in
// total. `batch` > 1: each message is a `positions` of that many fixes (a backlog after a tunnel), acked
// once for all; `window` then counts messages. `seconds` 0 with `idle`: log in, then only heartbeat until SIGTERM. Prints one JSON line.
import WebSocket from 'ws';
import { TerminalRequestError, TerminalSocket } from '../../packages/terminal-client/src/index.js';
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
  /** Fixes per message: 1 sends `position`, more send `positions` (at most 100). */
  batch?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const BATCH = Math.max(1, options.batch ?? 1);
let acked = 0;
let sent = 0;
let loggedIn = 0;
const errors = new Map<string, number>();
const perSecond: number[] = [];
/** Send-to-ack milliseconds of the fixes acknowledged while running (the ack means stored). */
const ackLatency = new Histogram();
let running = false;
/** Idle terminals send only heartbeats, this often. */
const IDLE_HEARTBEAT_MS = 20_000;

class Terminal {
  private readonly client: TerminalSocket;
  private socket: WebSocket | undefined;
  private loggedIn = false;
  private inFlight = 0;
  private lastTime = 0;
  private lat = 22.5 + Math.random() * 0.1;
  private readonly lon = 114 + Math.random() * 0.1;
  /** Fixes owed in paced mode. */
  credit = 0;
  private pausedUntil = 0;

  constructor(readonly phone: string) {
    this.client = new TerminalSocket({
      connect: () => (this.socket = new WebSocket(`${options.url.replace(/^http/, 'ws')}/terminal`)),
      // Thousands of fixes in flight: no timer each; a fix waits for its ack (the ack means stored).
      requestTimeoutMs: false,
      heartbeatMs: options.idle ? IDLE_HEARTBEAT_MS : false,
      // A socket that closes before its login was answered (a handshake timed out on a busy machine)
      // tries again 1-3 s later, whatever its close code, as a real terminal would.
      reconnect: { initialMs: 2_000, maxMs: 2_000, finalCloseCodes: [] },
    });
    this.client.on('open', () => void this.logIn());
    // Once logged in, a closed terminal stays closed (`loggedIn` counts each terminal once). Its fixes
    // in flight reject with `closed`, which frees the window.
    this.client.on('close', () => this.loggedIn && this.client.close());
  }

  private async logIn(): Promise<void> {
    try {
      await this.client.login({ phone: this.phone, password: SEED_PASSWORD });
      this.loggedIn = true;
      loggedIn += 1;
    } catch (error) {
      refused(error);
    }
  }

  /** Sends while the window allows (and, paced, while credit is left). */
  pump(): void {
    if (!running || !this.client.isOpen || Date.now() < this.pausedUntil) return;
    while (this.inFlight < options.window && (options.rate === 0 || this.credit >= BATCH)) {
      if (options.rate > 0) this.credit -= BATCH;
      const fixes = Array.from({ length: BATCH }, () => this.nextFix());
      this.inFlight += 1;
      sent += BATCH;
      const sentAt = performance.now();
      const message = BATCH === 1 ? { type: 'position' as const, ...fixes[0]! } : { type: 'positions' as const, fixes };
      this.client.request(message).then(
        () => this.stored(sentAt),
        (error: unknown) => this.notStored(error),
      );
    }
  }

  /** Strictly increasing fix times; the console measures its latency against the newest stamp. */
  private nextFix() {
    const time = Math.max(Date.now(), this.lastTime + 1);
    this.lastTime = time;
    this.lat += 0.00001;
    return { lat: this.lat, lon: this.lon, time, speed: 30, course: 0 };
  }

  private stored(sentAt: number): void {
    this.inFlight -= 1;
    if (running) {
      acked += BATCH;
      ackLatency.add(performance.now() - sentAt);
    }
    this.pump();
  }

  private notStored(error: unknown): void {
    this.inFlight -= 1;
    // As a real terminal would: wait as long as the server asks before sending again.
    const wait = refused(error);
    if (wait) {
      this.pausedUntil = Date.now() + wait;
      setTimeout(() => this.pump(), wait);
    }
    this.pump();
  }

  close(): void {
    this.client.close();
    this.socket?.terminate();
  }
}

/** Counts a refusal by the server's code; returns the wait it asks for. A closed socket is not counted. */
function refused(error: unknown): number | undefined {
  if (!(error instanceof TerminalRequestError) || !error.reply) return undefined;
  errors.set(error.code, (errors.get(error.code) ?? 0) + 1);
  return error.retryAfterMs;
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
  process.stdout.write(`${JSON.stringify({ loggedIn })}\n`);
  process.on('SIGTERM', () => {
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
          t.credit = Math.min(t.credit + share, options.window * BATCH);
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
