import {
  TERMINAL_PATH,
  TerminalCloseCodes,
  TerminalErrors,
  type TerminalConfig,
  type TerminalLoginAck,
  type TerminalServerMessage,
} from '@intercom/contract';
import {
  TerminalRequestError,
  TerminalSocket,
  type TerminalAck,
  type TerminalRequest,
} from '@intercom/terminal-client';
import WebSocket from 'ws';
import type { SimDevice } from './device.js';
import { FixBacklog, type TunnelSetup } from './fixBacklog.js';
import type { FleetStats } from './stats.js';
import { VideoPublisher, type VideoSetup } from './videoPublisher.js';
import { SimTalker, type TalkSetup } from './talker.js';
import { DEFAULT_EMERGENCY, EmergencyVoice, type EmergencyHabit } from './emergencyVoice.js';
import { SpeechBurst, type TalkLink } from './speechBurst.js';

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
  /** Push-to-talk in its channel; absent: it never talks there. */
  talk?: TalkSetup;
  /**
   * Speech for its emergency calls (default: the talk setup's phrase); absent with no talk setup, it
   * stays silent in them.
   */
  speech?: readonly Buffer[];
  /** How it speaks in its emergency calls (default DEFAULT_EMERGENCY). */
  emergency?: EmergencyHabit;
  /**
   * Milliseconds a request (the login above all) may wait for its reply (default 30 s): a password
   * login costs the server a scrypt run, and a busy server answers slowly.
   */
  requestTimeoutMs?: number;
  /** Lone worker: how it answers `checkInDue` (absent: at once, always). */
  checkIns?: CheckInHabit;
  /** Drives through tunnels: keeps its fixes while out of coverage, sends them as `positions` after. */
  tunnel?: TunnelSetup;
}

/** A simulated worker's habit: answers after up to `maxDelayMs`, lets a check-in pass with chance `missRate`. */
export interface CheckInHabit {
  missRate: number;
  maxDelayMs: number;
  random: () => number;
}

/** A camera frame is skipped while the socket holds more than this unsent. */
const VIDEO_BUSY_BYTES = 256 * 1024;

/** Closes after which reconnecting is pointless: logged out, or the account is gone, frozen or used elsewhere. */
const FINAL_CLOSES = [TerminalCloseCodes.normal, TerminalCloseCodes.replaced, TerminalCloseCodes.accountChanged];

/** A request unanswered this long fails; a login then is given up and the connection made again (see logIn). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Login refusals that another attempt would only repeat. */
const GIVE_UP = new Set<string>([TerminalErrors.badCredentials, TerminalErrors.frozen, TerminalErrors.expired]);

/**
 * One simulated terminal on `/terminal`: logs in, reports a fix with status every interval, a
 * heart rate every third report, heartbeats, an SOS now and then, follows configuration pushes,
 * and reconnects with back-off after a drop or a server restart (TerminalSocket).
 */
export class SimTerminal {
  private client: TerminalSocket | undefined;
  private socket: WebSocket | undefined;
  private timer: NodeJS.Timeout | undefined;
  private config: TerminalConfig | undefined;
  private reports = 0;
  private stopped = false;
  private lastStep = Date.now();
  readonly camera: VideoPublisher | undefined;
  private readonly talker: SimTalker | undefined;
  private readonly voice: EmergencyVoice | undefined;
  private readonly backlog: FixBacklog;
  private firstDone: () => void = () => undefined;
  /** Settles when the first login has been answered, refused or given up, or the first socket closed (LoginGate). */
  readonly firstLogin = new Promise<void>((resolve) => (this.firstDone = resolve));

  constructor(private readonly setup: TerminalSetup) {
    this.backlog = new FixBacklog(setup.tunnel, Date.now());
    if (setup.video) {
      this.camera = new VideoPublisher(
        setup.video,
        setup.phone,
        (frame) => {
          const client = this.client;
          if (!client?.isOpen || client.bufferedAmount > VIDEO_BUSY_BYTES) return false;
          return client.sendFrame(frame);
        },
        setup.log,
      );
    }
    const link: TalkLink = {
      request: (message) => this.client?.request(message) ?? Promise.reject(new Error('not started')),
      send: (message) => void this.fire(message),
      sendBinary: (frame) => void this.client?.sendFrame(frame),
    };
    const speech = setup.speech ?? setup.talk?.packets;
    if (!speech) return;
    const mic = new SpeechBurst(link, speech, setup.stats);
    const talker = setup.talk && new SimTalker(setup.talk, link, mic);
    this.talker = talker;
    const hold = (on: boolean) => talker?.hold(on);
    this.voice = new EmergencyVoice(setup.emergency ?? DEFAULT_EMERGENCY, link, mic, setup.stats, hold);
  }

  start(): void {
    if (this.stopped || this.client) return;
    const wsUrl = `${this.setup.url.replace(/^http/, 'ws')}${TERMINAL_PATH}`;
    const { stats } = this.setup;
    const client = new TerminalSocket({
      connect: () => (this.socket = new WebSocket(wsUrl)),
      reconnect: { finalCloseCodes: FINAL_CLOSES },
      requestTimeoutMs: this.setup.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    });
    this.client = client;
    client.on('open', () => {
      stats.connected += 1;
      void this.logIn(client);
    });
    client.on('push', (message) => this.pushed(message));
    client.on('frame', () => (stats.framesHeard += 1));
    client.on('close', () => {
      this.firstDone();
      this.closed();
    });
    client.on('reconnect', () => (stats.reconnects += 1));
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.firstDone();
    this.clearTimers();
    this.camera?.stop();
    this.talker?.offline();
    this.voice?.offline();
    const { client, socket } = this;
    if (!client || !socket || socket.readyState === WebSocket.CLOSED) {
      client?.close();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      // The server closes after the logout ack; no reconnect follows even if a heartbeat timeout wins.
      if (client.isOpen) void client.logout().catch(() => undefined);
      else client.close();
      setTimeout(() => {
        client.close();
        socket.terminate();
      }, 2000).unref();
    });
  }

  /** Sends and counts an error reply; resolves with the ack, or undefined when there is none. */
  private fire(message: TerminalRequest): Promise<TerminalAck | undefined> {
    return (this.client?.request(message) ?? Promise.resolve(undefined)).catch((error: unknown) => {
      this.refused(error);
      return undefined;
    });
  }

  /** Counts the server's refusal; a connection lost on the way is not one. */
  private refused(error: unknown): void {
    if (error instanceof TerminalRequestError && error.reply) this.setup.stats.error(error.code);
  }

  private async logIn(client: TerminalSocket): Promise<void> {
    const { phone, password } = this.setup;
    let ack: TerminalAck;
    try {
      ack = await client.login({ phone, password, device: 'intercom-simulator' });
    } catch (error) {
      this.firstDone();
      this.refused(error);
      if (error instanceof TerminalRequestError && GIVE_UP.has(error.code)) {
        this.setup.log(`${phone}: login refused (${error.code}); giving up on this terminal`);
        this.stopped = true;
        client.close();
      } else if (!(error instanceof TerminalRequestError && error.reply)) {
        // No answer in time: the server may still finish this login and then count the user online on
        // a socket that says nothing, until a heartbeat timeout reports it offline (issue 51: 8 Offline
        // alarms at a demo's first start). Closing lets the server drop the login; TerminalSocket
        // connects again and this logs in anew.
        this.socket?.close();
      }
      return;
    }
    this.firstDone();
    this.setup.stats.loggedIn += 1;
    const login = ack as unknown as TerminalLoginAck;
    this.configure(login.config);
    this.talker?.online();
    this.voice?.online(login.user.U_ID);
    // The server answers not_video_member without rights (counted in the fleet's errors).
    if (this.setup.video) void this.fire({ type: 'videoCaps', codecs: [this.setup.video.codec] });
  }

  private pushed(message: TerminalServerMessage): void {
    this.talker?.pushed(message);
    this.voice?.pushed(message);
    if (message.type === 'videoStart') this.camera?.start();
    else if (message.type === 'videoStop') this.camera?.stop();
    else if (message.type === 'config') this.configure(message.config);
    else if (message.type === 'checkInDue') this.checkInDue();
    else if (message.type === 'error') this.setup.stats.error(message.code);
  }

  /** A check-in fell due: answered a moment later, as a person pressing a button, unless let pass. */
  private checkInDue(): void {
    const { stats, checkIns: habit } = this.setup;
    stats.checkInsDue += 1;
    const random = habit?.random ?? Math.random;
    if (habit && random() < habit.missRate) {
      stats.checkInsMissed += 1;
      return;
    }
    const answer = () =>
      void this.fire({ type: 'checkIn' }).then((ack) => {
        if (ack) stats.checkIns += 1;
      });
    setTimeout(answer, random() * (habit?.maxDelayMs ?? 0)).unref();
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
  }

  private report(): void {
    const now = Date.now();
    const reading = this.setup.device.step((now - this.lastStep) / 1000);
    this.lastStep = now;
    this.reports += 1;
    const { stats } = this.setup;
    if (this.backlog.inTunnel(now)) return this.keepFix(reading, now);
    if (this.backlog.size > 0) void this.sendBacklog();
    if (this.config?.enabled !== false) {
      const fix = fixOf(reading, now);
      void this.fire({ type: 'position', ...fix }).then((ack) => {
        if (ack) stats.acked += 1;
      });
      stats.fixes += 1;
    }
    void this.fire({ type: 'status', battery: reading.battery, signal: reading.signal });
    if (this.reports % 3 === 0) void this.fire({ type: 'heartRate', value: reading.heartRate, time: now });
    if (reading.sos) {
      stats.sos += 1;
      void this.fire({ type: 'sos', text: 'Simulated SOS' });
    }
  }

  /** Out of coverage: the fix is kept for later and nothing else is reported. */
  private keepFix(reading: Reading, now: number): void {
    if (this.config?.enabled === false) return;
    this.backlog.keep(fixOf(reading, now));
    this.setup.stats.fixes += 1;
  }

  /** Back in coverage: the kept fixes go as `positions` batches, each acknowledged once for all. */
  private async sendBacklog(): Promise<void> {
    const { stats } = this.setup;
    await this.backlog.send(async (fixes) => {
      const ack = await this.fire({ type: 'positions', fixes });
      if (!ack) return false;
      stats.acked += fixes.length;
      stats.batches += 1;
      return true;
    });
  }

  private closed(): void {
    const { stats } = this.setup;
    stats.connected = Math.max(0, stats.connected - 1);
    if (this.config) stats.loggedIn = Math.max(0, stats.loggedIn - 1);
    this.config = undefined;
    this.camera?.stop();
    this.clearTimers();
    this.talker?.offline();
    this.voice?.offline();
  }

  private clearTimers(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

type Reading = ReturnType<SimDevice['step']>;

function fixOf(reading: Reading, now: number) {
  const { lat, lon } = reading.position;
  return { lat, lon, time: now, speed: round(reading.speedKmh), course: Math.round(reading.course), accuracy: 5 };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
