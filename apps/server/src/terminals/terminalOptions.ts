import { TerminalLimits } from '@intercom/contract';

/** Timings and limits of the terminal gateway; tests shorten them through `buildApp(deps, { terminals })`. */
export interface TerminalOptions {
  /** A socket that has not logged in after this long is closed. */
  loginTimeoutMs: number;
  /** Heartbeat interval the server asks for (seconds, sent in the configuration). */
  heartbeatSeconds: number;
  /** A logged-in terminal silent for this long is closed and goes offline. */
  heartbeatTimeoutMs: number;
  /**
   * After a socket drops without a logout, the user stays online this long; a new login within
   * it keeps the user online without an Offline alarm (mobile networks drop and reconnect).
   */
  offlineGraceMs: number;
  /** How often silent sockets and stale GPS fixes are looked for. */
  sweepMs: number;
  maxMessageBytes: number;
  messagesPerSecond: number;
  messagesBurst: number;
  /**
   * Refusals in one episode after which the socket is closed as flooding (1008): text messages over
   * the rate, and refused binary frames (audio over its rate or without the floor, video without
   * rights, over its rate or unasked, malformed frames). Above what a well-behaved talker sends in
   * the second after it loses the floor (50 frames).
   */
  floodCloseAfter: number;
  /** An episode of refusals ends after this long without one: its single log line is written then. */
  floodQuietMs: number;
  /**
   * Wrong passwords in a row for one phone before its password logins are refused for `loginLockMs`
   * (`TERMINAL_LOGIN_MAX_FAILURES`, `TERMINAL_LOGIN_LOCK_MINUTES`). A good `resume` token still gets in.
   */
  loginMaxFailures: number;
  loginLockMs: number;
  /**
   * Failed logins from one client address within `loginIpWindowMs` after which that address's logins
   * are refused (`login_rate_limited`) until the window ends (`TERMINAL_LOGIN_IP_FAILURES`).
   */
  loginIpMaxFailures: number;
  loginIpWindowMs: number;
  /** Failed logins on one socket after which it closes (4005 `login_failures`; `TERMINAL_LOGIN_SOCKET_FAILURES`). */
  loginFailuresPerSocket: number;
  /**
   * History writer: flush after this long or this many rows, whichever comes first. An ack waits
   * for the flush (it means stored), so this bounds the ack latency at low load.
   */
  flushMs: number;
  flushRows: number;
  /**
   * Rows waiting beyond which fixes are refused (`busy`) instead of acknowledged. A fix can wait for
   * the batch being written and then its own, so this bounds the saturated ack latency: 12,000 keeps
   * its p99 under 300 ms where 20,000 gave 370-450 ms, for 5-15 % less throughput (docs/benchmarks.md).
   */
  maxQueuedRows: number;
  /** How long a user looked up by phone or device code is cached (OsmAnd, logins). */
  userCacheMs: number;
  /** OsmAnd requests per minute from one address. */
  osmandPerMinute: number;
  /**
   * How often the console sessions behind dispatcher seats are read again: a session that ended by a
   * path nobody announced (idle or absolute timeout, a deleted account) closes its seat within this.
   */
  seatCheckMs: number;
}

export const DEFAULT_TERMINAL_OPTIONS: TerminalOptions = {
  loginTimeoutMs: 10_000,
  heartbeatSeconds: TerminalLimits.heartbeatSeconds,
  heartbeatTimeoutMs: 3 * TerminalLimits.heartbeatSeconds * 1000,
  offlineGraceMs: 15_000,
  sweepMs: 5_000,
  maxMessageBytes: TerminalLimits.maxMessageBytes,
  messagesPerSecond: TerminalLimits.messagesPerSecond,
  messagesBurst: TerminalLimits.messagesBurst,
  floodCloseAfter: 200,
  floodQuietMs: 2_000,
  loginMaxFailures: 5,
  loginLockMs: 15 * 60_000,
  loginIpMaxFailures: 30,
  loginIpWindowMs: 60_000,
  loginFailuresPerSocket: 5,
  flushMs: 50,
  flushRows: 500,
  maxQueuedRows: 12_000,
  userCacheMs: 60_000,
  osmandPerMinute: 600,
  seatCheckMs: 5_000,
};

/** The login limits' settings (config.ts `terminalLogin`), which options given by a test override. */
export interface TerminalLoginSettings {
  maxFailures: number;
  lockMs: number;
  ipFailuresPerMinute: number;
  failuresPerSocket: number;
}

export function terminalOptionsOf(
  overrides: Partial<TerminalOptions> = {},
  settings?: TerminalLoginSettings,
): TerminalOptions {
  const fromSettings: Partial<TerminalOptions> = settings
    ? {
        loginMaxFailures: settings.maxFailures,
        loginLockMs: settings.lockMs,
        loginIpMaxFailures: settings.ipFailuresPerMinute,
        loginFailuresPerSocket: settings.failuresPerSocket,
      }
    : {};
  return { ...DEFAULT_TERMINAL_OPTIONS, ...fromSettings, ...overrides };
}
