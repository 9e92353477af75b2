import { TERMINAL_PATH, TerminalCloseCodes, type TerminalConfig } from '@intercom/contract';
import WebSocket from 'ws';
import type { SimDevice } from './device.js';
import type { FleetStats } from './stats.js';
import { VideoPublisher, type VideoSetup } from './videoPublisher.js';
import { SimTalker, type TalkSetup } from './talker.js';

export interface TerminalSetup {
  /** Server base URL, http(s)://host:port. */
  url: string;
  phone: string;
  password: string;
  device: SimDevice;
  stats: FleetStats;
  /** Seconds between reports; undefined follows the server's configuration. */
  interval: number | undefined;
  /** Publish a test stream (the user needs video rights: see `--video`). */
  video?: VideoSetup;
  log: (line: string) => void;
  /** Push-to-talk in its channel; absent: it never talks. */
  talk?: TalkSetup;
}

/** A camera frame is skipped while the socket holds more than this unsent. */
const VIDEO_BUSY_BYTES = 256 * 1024;

/** Closes after which reconnecting is pointless: the account is gone, frozen or used elsewhere. */
const FINAL_CLOSES = new Set<number>([TerminalCloseCodes.replaced, TerminalCloseCodes.accountChanged]);

/**
 * One simulated terminal on `/terminal`: logs in, reports a fix with status every interval, a
 * heart rate every third report, heartbeats, an SOS now and then, follows configuration pushes,
 * and reconnects with back-off after a drop or a server restart.
 */
export class SimTerminal {
  private socket: WebSocket | undefined;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private config: TerminalConfig | undefined;
  private backoffMs = 1000;
  private reports = 0;
  private stopped = false;
  private lastStep = Date.now();
  private readonly pendingFixes = new Set<number>();
  readonly camera: VideoPublisher | undefined;
  private readonly talker: SimTalker | undefined;

  constructor(private readonly setup: TerminalSetup) {
    if (setup.video) {
      this.camera = new VideoPublisher(setup.video, setup.phone, (frame) => {
        const socket = this.socket;
        if (socket?.readyState !== WebSocket.OPEN || socket.bufferedAmount > VIDEO_BUSY_BYTES) return false;
        socket.send(frame, { binary: true });
        return true;
      });
    }
    this.talker =
      setup.talk &&
      new SimTalker(setup.talk, {
        send: (message) => this.send(message),
        sendBinary: (frame) => {
          if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(frame, { binary: true });
        },
      });
  }

  start(): void {
    if (this.stopped) return;
    const wsUrl = `${this.setup.url.replace(/^http/, 'ws')}${TERMINAL_PATH}`;
    const socket = new WebSocket(wsUrl);
    this.socket = socket;
    socket.on('open', () => {
      this.setup.stats.connected += 1;
      this.send({
        type: 'login',
        phone: this.setup.phone,
        password: this.setup.password,
        device: 'intercom-simulator',
      });
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.setup.stats.framesHeard += 1;
      else this.receive(String(data));
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => this.closed(code));
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    this.camera?.stop();
    this.talker?.offline();
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      if (socket.readyState === WebSocket.OPEN) this.send({ type: 'logout' });
      else socket.terminate();
      setTimeout(() => socket.terminate(), 2000).unref();
    });
  }

  /** Sends with the next seq; returns it, or 0 when the socket is not open. */
  private send(message: Record<string, unknown>): number {
    if (this.socket?.readyState !== WebSocket.OPEN) return 0;
    this.seq += 1;
    this.socket.send(JSON.stringify({ seq: this.seq, ...message }));
    return this.seq;
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as {
      type: string;
      seq?: number;
      code?: string;
      config?: TerminalConfig;
      codec?: string;
      cid?: number;
      granted?: boolean;
    };
    const { stats } = this.setup;
    if (this.talker?.answer(message)) return;
    this.talker?.pushed(message);
    const wasFix = message.seq !== undefined && this.pendingFixes.delete(message.seq);
    if (message.type === 'ack' && message.config) {
      stats.loggedIn += 1;
      this.backoffMs = 1000;
      this.configure(message.config);
      this.talker?.online();
      // The server answers not_video_member without rights (counted in the fleet's errors).
      if (this.setup.video) this.send({ type: 'videoCaps', codecs: [this.setup.video.codec] });
    } else if (message.type === 'videoStart') {
      this.camera?.start();
    } else if (message.type === 'videoStop') {
      this.camera?.stop();
    } else if (message.type === 'config' && message.config) {
      this.configure(message.config);
    } else if (message.type === 'ack') {
      if (wasFix) stats.acked += 1;
    } else if (message.type === 'error') {
      stats.error(message.code ?? 'unknown');
      if (message.code === 'bad_credentials' || message.code === 'frozen' || message.code === 'expired') {
        this.setup.log(`${this.setup.phone}: login refused (${message.code}); giving up on this terminal`);
        this.stopped = true;
        this.socket?.close();
      }
    }
  }

  private configure(config: TerminalConfig): void {
    this.config = config;
    this.clearTimers();
    const intervalMs = (this.setup.interval ?? config.interval) * 1000;
    // Spread the fleet over the interval so reports do not arrive in one burst.
    this.timer = setTimeout(() => {
      this.report();
      this.timer = setInterval(() => this.report(), intervalMs);
    }, Math.random() * intervalMs);
    this.heartbeat = setInterval(() => this.send({ type: 'heartbeat' }), config.heartbeat * 1000);
  }

  private report(): void {
    const now = Date.now();
    const reading = this.setup.device.step((now - this.lastStep) / 1000);
    this.lastStep = now;
    this.reports += 1;
    const { stats } = this.setup;
    if (this.config?.enabled !== false) {
      const { lat, lon } = reading.position;
      const seq = this.send({
        type: 'position',
        lat,
        lon,
        time: now,
        speed: round(reading.speedKmh),
        course: Math.round(reading.course),
        accuracy: 5,
      });
      if (seq) this.pendingFixes.add(seq);
      stats.fixes += 1;
    }
    this.send({ type: 'status', battery: reading.battery, signal: reading.signal });
    if (this.reports % 3 === 0) this.send({ type: 'heartRate', value: reading.heartRate, time: now });
    if (reading.sos) {
      stats.sos += 1;
      this.send({ type: 'sos', text: 'Simulated SOS' });
    }
  }

  private closed(code: number): void {
    const { stats } = this.setup;
    stats.connected = Math.max(0, stats.connected - 1);
    if (this.config) stats.loggedIn = Math.max(0, stats.loggedIn - 1);
    this.config = undefined;
    this.camera?.stop();
    this.pendingFixes.clear();
    this.clearTimers();
    this.talker?.offline();
    if (this.stopped || FINAL_CLOSES.has(code)) return;
    stats.reconnects += 1;
    const delay = this.backoffMs * (0.5 + Math.random());
    this.backoffMs = Math.min(this.backoffMs * 2, 30_000);
    setTimeout(() => this.start(), delay).unref();
  }

  private clearTimers(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    this.timer = undefined;
    this.heartbeat = undefined;
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
