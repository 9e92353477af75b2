import { DEFAULT_HUB_PUSH_INTERVAL_MS } from '../config.js';

export type TransportKind = 'WebSockets' | 'ServerSentEvents' | 'LongPolling';

export const ALL_TRANSPORTS: readonly TransportKind[] = ['WebSockets', 'ServerSentEvents', 'LongPolling'];

/** Timings and limits of the hub; the defaults are ASP.NET SignalR's where it has one. */
export interface HubOptions {
  /** Ping WebSocket and SSE clients after this much silence; 0 never pings. */
  keepAliveMs: number;
  /**
   * Drop a WebSocket or SSE connection from which nothing (not even a ping record) arrived for this
   * long: ASP.NET's ClientTimeoutInterval. The official client pings every 15 s, so 30 s is two
   * missed pings; 0 never drops. Long polling is covered by the disconnect timeout instead.
   */
  clientTimeoutMs: number;
  /** Drop a connection whose transport sent no handshake for this long. */
  handshakeTimeoutMs: number;
  /** Hold an empty long poll this long, then answer 200 empty; keep it under the client's 100 s. */
  pollTimeoutMs: number;
  /**
   * A long-polling connection without a poll outstanding for this long is gone (the client died);
   * so is a negotiated connection whose transport never arrives.
   */
  disconnectTimeoutMs: number;
  /**
   * Least time between two pushes of one scope's changes (and so to one connection): 50 ms is at
   * most 20 a second. A connection that cannot keep up gets them merged (LiveFeeds).
   */
  pushIntervalMs: number;
  /**
   * A quarter of what one connection may have queued (not yet taken by its client) when a reply or
   * control record comes, before it is closed as overloaded; that limit is never below eight times
   * its last snapshot. Pushes are never refused: a slow client's are held merged by key (LiveFeeds).
   */
  maxQueueChars: number;
  /** Largest record a client may send. */
  maxMessageChars: number;
  /** How often the sessions behind hub connections are checked (ended, expired, frozen) and touched. */
  sessionCheckMs: number;
  /** Hub connections one session may hold at once (tabs, reconnects in flight); negotiate beyond it gets 429. */
  maxConnectionsPerSession: number;
  /** Transports offered by negotiate, in the order the client tries them. */
  transports: readonly TransportKind[];
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  keepAliveMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  pollTimeoutMs: 90_000,
  disconnectTimeoutMs: 15_000,
  pushIntervalMs: DEFAULT_HUB_PUSH_INTERVAL_MS,
  maxQueueChars: 1024 * 1024,
  maxMessageChars: 64 * 1024,
  sessionCheckMs: 5_000,
  maxConnectionsPerSession: 50,
  transports: ALL_TRANSPORTS,
};

export function hubOptionsOf(overrides: Partial<HubOptions> = {}): HubOptions {
  const options = { ...DEFAULT_HUB_OPTIONS, ...overrides };
  if (options.pollTimeoutMs >= 100_000) throw new RangeError('pollTimeoutMs must stay under the client abort of 100 s');
  return options;
}
