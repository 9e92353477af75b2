// One worker thread of bench/support/fleetLoad.ts: `count` terminals (phones first..first+count-1)
// through TerminalSocket, each reporting a position every `positionMs` and a status every `statusMs`,
// joined to its channel (terminal i is in channel floor(i / channelSize)); the first member of each
// channel talks a burst of `talkBurstMs` every `talkMs`. Every terminal reconnects and logs in again
// (with its resume token, as TerminalSocket keeps it) when the server goes away. Posts its counters
// to the parent every second; `stop` ends the reports and posts the final counters.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { TerminalRequestError, TerminalSocket, encodeAudioUp } from '../../packages/terminal-client/src/index.js';
import { emptyCounters, type FleetWorkerOptions } from './fleetCounters.js';
import { SEED_PASSWORD, terminalPhone } from './seedTerminals.js';

const options = workerData as FleetWorkerOptions;
const wsUrl = `${options.url.replace(/^http/, 'ws')}/terminal`;
const counters = emptyCounters();
let stopped = false;
const timers: NodeJS.Timeout[] = [];
const PACKET = new Uint8Array(60).fill(0x5a);
const FRAME_MS = 20;

function failed(error: unknown): void {
  const code = error instanceof TerminalRequestError ? error.code : String(error);
  counters.errors[code] = (counters.errors[code] ?? 0) + 1;
}

/** First logins wait here for a slot. */
let loginSlots = options.loginConcurrency;
const loginQueue: (() => void)[] = [];
async function loginSlot(): Promise<() => void> {
  if (loginSlots === 0) await new Promise<void>((resolve) => loginQueue.push(resolve));
  else loginSlots -= 1;
  return () => {
    const next = loginQueue.shift();
    if (next) next();
    else loginSlots += 1;
  };
}

class FleetTerminal {
  private readonly client: TerminalSocket;
  private online = false;
  private everLoggedIn = false;
  private lastTime = 0;
  private lat = 22.45 + Math.random() * 0.2;
  private lon = 113.95 + Math.random() * 0.2;
  private readonly cid: number;

  constructor(private readonly index: number) {
    this.cid = options.cids[Math.floor(index / options.channelSize)] ?? 0;
    this.client = new TerminalSocket({
      connect: () => new WebSocket(wsUrl),
      requestTimeoutMs: false,
      // A server restart: try again after 1 s, doubling up to 4 s (±50 % jitter), whatever the close code.
      reconnect: { initialMs: 1000, maxMs: 4000, finalCloseCodes: [] },
    });
    this.client.on('open', () => void this.logIn());
    this.client.on('close', () => {
      if (this.online) counters.online -= 1;
      this.online = false;
    });
    this.client.on('frame', () => (counters.framesReceived += 1));
  }

  private async logIn(): Promise<void> {
    if (stopped) return;
    const release = this.everLoggedIn ? () => undefined : await loginSlot();
    try {
      const hadToken = this.everLoggedIn;
      const ack = await this.client.login({ phone: terminalPhone(this.index), password: SEED_PASSWORD });
      if (hadToken && typeof ack.resume !== 'string') counters.resumed += 1;
      this.online = true;
      counters.online += 1;
      counters.logins += 1;
      counters.lastLoginAt = Date.now();
      if (this.cid) {
        await this.client.request({ type: 'join', cid: this.cid });
        counters.joined += 1;
      }
      if (!this.everLoggedIn) {
        this.everLoggedIn = true;
        this.start();
      }
    } catch (error) {
      failed(error);
      // Refused or dropped: the next open (a reconnect) logs in again; a refusal on an open socket waits 2 s.
      if (this.client.isOpen && !this.online) timers.push(setTimeout(() => void this.logIn(), 2000));
    } finally {
      release();
    }
  }

  /** The reports and the talker's bursts, from the first login on, each at a random phase. */
  private start(): void {
    this.position();
    const every = (ms: number, phase: number, work: () => void) =>
      timers.push(setTimeout(() => (work(), timers.push(setInterval(work, ms))), phase));
    every(options.positionMs, Math.random() * options.positionMs, () => this.position());
    every(options.statusMs, Math.random() * options.statusMs, () => this.status());
    const channel = Math.floor(this.index / options.channelSize);
    if (this.cid && this.index % options.channelSize === 0) {
      every(options.talkMs, (channel * options.talkMs) / options.cids.length, () => void this.talk());
    }
  }

  private position(): void {
    if (stopped || !this.online) return;
    const time = Math.max(Date.now(), this.lastTime + 1);
    this.lastTime = time;
    this.lat += (Math.random() - 0.5) * 0.0005;
    this.lon += (Math.random() - 0.5) * 0.0005;
    counters.positionsSent += 1;
    this.client
      .request({ type: 'position', lat: this.lat, lon: this.lon, time, speed: 12, course: 90, accuracy: 5 })
      .then(
        () => (counters.positionsAcked += 1),
        (error: unknown) => {
          counters.positionsFailed += 1;
          failed(error);
        },
      );
  }

  private status(): void {
    if (stopped || !this.online) return;
    const battery = 20 + Math.floor(Math.random() * 80);
    this.client.request({ type: 'status', battery, signal: 60 + Math.floor(Math.random() * 40) }).then(
      () => (counters.statusAcked += 1),
      (error: unknown) => failed(error),
    );
  }

  /** Takes the floor, sends a frame every 20 ms for the burst, releases it. */
  private async talk(): Promise<void> {
    if (stopped || !this.online) return;
    try {
      await this.client.request({ type: 'floorRequest', cid: this.cid });
    } catch (error) {
      failed(error);
      return;
    }
    counters.bursts += 1;
    const frames = Math.round(options.talkBurstMs / FRAME_MS);
    const started = performance.now();
    for (let seq = 0; seq < frames && !stopped && this.online; seq++) {
      if (this.client.sendFrame(encodeAudioUp({ cid: this.cid, seq, opus: PACKET }))) counters.framesSent += 1;
      const wait = started + (seq + 1) * FRAME_MS - performance.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
    }
    if (this.online) await this.client.request({ type: 'floorRelease', cid: this.cid }).catch(failed);
  }

  close(): void {
    this.client.close();
  }
}

const terminals = Array.from({ length: options.count }, (_, i) => new FleetTerminal(options.first + i));
const report = setInterval(() => parentPort?.postMessage({ counters }), 1000);
parentPort?.on('message', (message: { stop?: boolean }) => {
  if (!message.stop) return;
  stopped = true;
  timers.forEach((timer) => clearTimeout(timer));
  // The fixes in flight get their acks (or errors) before the final count.
  setTimeout(() => {
    clearInterval(report);
    parentPort?.postMessage({ counters, final: true });
    terminals.forEach((terminal) => terminal.close());
  }, 3000);
});
