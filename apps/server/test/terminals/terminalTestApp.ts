import WebSocket from 'ws';
import { TERMINAL_PATH, USER_CAPS_DEFAULT, type TerminalServerMessage } from '@intercom/contract';
import { TerminalSocket } from '@intercom/terminal-client';
import { hashPassword } from '../../src/auth/passwords.js';
import type { HubOptions } from '../../src/hub/hubOptions.js';
import type { TerminalOptions } from '../../src/terminals/terminalOptions.js';
import type { Terminals } from '../../src/terminals/terminalsPlugin.js';
import { TEST_LOG_N } from '../helper.js';
import { FAST_HUB, sleep, startHubApp, type HubTestApp } from '../hub/hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

export const TERMINAL_PASSWORD = 'Term#2026';

/** Short timings: a fast suite, and timeouts a test can wait for. */
export const FAST_TERMINALS: Partial<TerminalOptions> = {
  loginTimeoutMs: 2_000,
  heartbeatTimeoutMs: 2_000,
  offlineGraceMs: 0,
  sweepMs: 100,
  flushMs: 20,
  loginLockMs: 60_000,
};

export interface TerminalTestApp extends HubTestApp {
  terminalUrl: string;
  terminals: Terminals;
}

/** A listening server (port 0) on a fresh database (SQLite, or PostgreSQL with TEST_DATABASE_URL). */
export async function startTerminalApp(
  terminals: Partial<TerminalOptions> = FAST_TERMINALS,
  hub: Partial<HubOptions> = FAST_HUB,
  env: Record<string, string> = {},
  more: Omit<Parameters<typeof startHubApp>[1], 'terminals' | 'env'> = {},
): Promise<TerminalTestApp> {
  const t = await startHubApp(hub, { ...more, terminals, env });
  const port = new URL(t.origin).port;
  return { ...t, terminalUrl: `ws://127.0.0.1:${port}${TERMINAL_PATH}`, terminals: t.app.terminals };
}

/**
 * The terminal app of a test file, started before its tests and closed after them: FAST_TERMINALS
 * with `terminals` over them; the hub, the environment and the rest as startTerminalApp takes them.
 */
export function useTerminalApp(
  terminals: Partial<TerminalOptions> = {},
  hub?: Partial<HubOptions>,
  env?: Record<string, string>,
  more?: Parameters<typeof startTerminalApp>[3],
): TerminalTestApp {
  return useTestApp(() => startTerminalApp({ ...FAST_TERMINALS, ...terminals }, hub, env, more));
}

let phoneCounter = 0;
/** A phone number nobody in this process used yet. */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `138${String(process.pid % 10_000).padStart(4, '0')}${String(phoneCounter).padStart(4, '0')}`;
}

export interface NewTerminalUser {
  E_ID: number;
  phone?: string;
  password?: string;
  name?: string;
  IsLock?: number;
  ExpireAt?: number | null;
  GPSConfig?: string;
  Caps?: number;
}

/** Inserts a terminal user straight into the table; returns its id and phone. */
export async function createTerminalUser(
  t: HubTestApp,
  input: NewTerminalUser,
): Promise<{ U_ID: number; phone: string; E_ID: number }> {
  const phone = input.phone ?? uniquePhone();
  const row = await t.db
    .insertInto('terminal_user')
    .values({
      E_ID: input.E_ID,
      OS_ID: null,
      UserName: input.name ?? `T${phone}`,
      MobilePhone: phone,
      ICCID: null,
      UType: 0,
      PriorityLevel: 0,
      ExpireAt: input.ExpireAt ?? null,
      IsLock: input.IsLock ?? 0,
      Caps: input.Caps ?? USER_CAPS_DEFAULT,
      PasswordHash: await hashPassword(input.password ?? TERMINAL_PASSWORD, TEST_LOG_N),
      GPSConfig: input.GPSConfig ?? '',
      Remark: '',
      CreatedAt: Date.now(),
    })
    .returning('UserID')
    .executeTakeFirstOrThrow();
  return { U_ID: row.UserID, phone, E_ID: input.E_ID };
}

export type ServerMessage = TerminalServerMessage & Record<string, unknown>;

/**
 * A terminal driven by a test: numbered requests (a TerminalSocket without heartbeats, so a test
 * controls every message the server gets), every server message recorded, the close code kept.
 * `socket` stays the raw WebSocket for malformed text and frames.
 */
export class TestTerminal {
  readonly received: ServerMessage[] = [];
  /** Binary frames (audio) as they arrived. */
  readonly frames: Buffer[] = [];
  /** Everything in arrival order: `frame` for a binary frame, else the message's type. */
  readonly arrivals: string[] = [];
  closeCode: number | undefined;
  readonly closed: Promise<number>;
  private readonly client: TerminalSocket;

  constructor(readonly socket: WebSocket) {
    this.client = new TerminalSocket({ connect: () => socket, heartbeatMs: false });
    this.closed = new Promise((resolve) =>
      this.client.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
    this.client.on('message', (message) => {
      this.received.push(message);
      this.arrivals.push(message.type);
    });
    this.client.on('frame', (bytes) => {
      this.frames.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.arrivals.push('frame');
    });
  }

  static async connect(
    t: Pick<TerminalTestApp, 'terminalUrl'>,
    options?: WebSocket.ClientOptions,
  ): Promise<TestTerminal> {
    const terminal = new TestTerminal(new WebSocket(t.terminalUrl, options));
    await terminal.client.opened();
    return terminal;
  }

  /** One login with these fields on a fresh socket, closed after: the reply. */
  static async loginOnce(
    t: Pick<TerminalTestApp, 'terminalUrl'>,
    fields: Record<string, unknown>,
    options?: WebSocket.ClientOptions,
  ): Promise<ServerMessage> {
    const terminal = await TestTerminal.connect(t, options);
    try {
      return await terminal.request({ type: 'login', ...fields });
    } finally {
      terminal.close();
    }
  }

  /** Sends a message with the next seq; returns the seq (0 when the socket is not open). */
  send(message: Record<string, unknown>): number {
    return this.client.send(message);
  }

  /** Sends and waits for the ack or error of that seq (an error reply resolves too). */
  async request(message: Record<string, unknown>, timeoutMs = 5000): Promise<ServerMessage> {
    return await this.client.exchange(message, timeoutMs);
  }

  /** The first message (already received or coming) that matches. */
  async next(match: (message: ServerMessage) => boolean, timeoutMs = 5000): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(this.received.slice(-5))}`);
      await sleep(5);
    }
  }

  login(phone: string, password = TERMINAL_PASSWORD): Promise<ServerMessage> {
    return this.request({ type: 'login', phone, password });
  }

  close(): void {
    this.client.close();
  }
}

/** Connects and logs in; fails unless the login is acknowledged. */
export async function loggedIn(t: TerminalTestApp, phone: string): Promise<TestTerminal> {
  const terminal = await TestTerminal.connect(t);
  const reply = await terminal.login(phone);
  if (reply.type !== 'ack') throw new Error(`login refused: ${JSON.stringify(reply)}`);
  return terminal;
}

/** A fix near Shenzhen at `time` (default now). */
export function fix(time = Date.now(), lat = 22.54, lon = 114.05) {
  return { lat, lon, time, speed: 12, course: 90, accuracy: 5 };
}
