import {
  HttpTransportType,
  HubConnectionBuilder,
  LogLevel,
  type HubConnection,
  type IHttpConnectionOptions,
  type IHubProtocol,
} from '@microsoft/signalr';
import { HUB_PATH } from '@intercom/contract';
import type { HubOptions } from '../../src/hub/hubOptions.js';
import type { HubServer } from '../../src/hub/hubServer.js';
import type { LiveState } from '../../src/live/liveState.js';
import { enterpriseWithAccount, login } from '../helper.js';
import { scrapeMetrics, seriesValue } from '../metricsScrape.js';
import { buildTestApp, type TestApp, type TestAppOptions } from '../testApp.js';

/** A listening server (port 0) with hub options of the test's choosing. */
export interface HubTestApp extends TestApp {
  origin: string;
  /** Absolute hub URL, as the conformance checklist asks. */
  hubUrl: string;
  hub: HubServer;
  live: LiveState;
  adminToken: string;
}

/** The items of a FuncGPS snapshot, in the order the hub sends them. */
export const GPS_SNAPSHOT = ['GPSArray', 'NumOnlineUser', 'OnlineUser', 'Notifys', 'HeartRate', 'Videos'];

/**
 * Short timings so the suite stays fast; each test file may override them. The handshake and
 * transport deadlines stay long: on a loaded machine a client's negotiate, upgrade and handshake can
 * be more than a second apart, and only the files that test those deadlines (protocol, lifecycle)
 * shorten them.
 */
export const FAST_HUB: Partial<HubOptions> = {
  keepAliveMs: 1000,
  handshakeTimeoutMs: 10_000,
  pollTimeoutMs: 2000,
  disconnectTimeoutMs: 10_000,
  pushIntervalMs: 50,
  sessionCheckMs: 500,
};

/** A listening server on a fresh database (see buildTestApp), with hub options of the test's choosing. */
export async function startHubApp(
  hub: Partial<HubOptions> = FAST_HUB,
  more: Omit<TestAppOptions, 'hub' | 'listen' | 'consoleDir'> = {},
): Promise<HubTestApp> {
  const t = await buildTestApp({ ...more, hub, listen: true });
  try {
    const origin = String(t.origin);
    // The envelope claims the app's time: an app on a FakeClock checks the login against that.
    const { username, password, code } = t.demo;
    const tokens = await login(t.app, { username, password, code, time: t.deps.clock.now() });
    return {
      ...t,
      origin,
      hubUrl: `${origin}${HUB_PATH}`,
      hub: t.app.hub,
      live: t.deps.realtime.live,
      adminToken: tokens.access_token,
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** A new enterprise (optionally under a parent) with a logged-in admin. */
export async function tenant(t: HubTestApp, parentId?: number) {
  return enterpriseWithAccount(t, { role: 'admin', parentId: parentId ?? null });
}

export interface ClientOptions {
  transport?: HttpTransportType;
  skipNegotiation?: boolean;
  reconnect?: number[];
  serverTimeoutMs?: number;
  /** How often the client pings the server (the client's default is 15 s). */
  keepAliveMs?: number;
  /** Where the token comes from on each negotiate; a string is used as it is. */
  token: string | (() => string);
  /** The hub protocol (the client's default is JSON). */
  protocol?: IHubProtocol;
}

/** The official client, pointed at the absolute hub URL. */
export function hubClient(t: HubTestApp, options: ClientOptions): HubConnection {
  const token = options.token;
  const http: IHttpConnectionOptions = {
    accessTokenFactory: () => (typeof token === 'string' ? token : token()),
    ...(options.transport !== undefined ? { transport: options.transport } : {}),
    ...(options.skipNegotiation ? { skipNegotiation: true } : {}),
  };
  let builder = new HubConnectionBuilder().withUrl(t.hubUrl, http).configureLogging(LogLevel.None);
  if (options.protocol) builder = builder.withHubProtocol(options.protocol);
  if (options.reconnect) builder = builder.withAutomaticReconnect(options.reconnect);
  if (options.serverTimeoutMs !== undefined) builder = builder.withServerTimeout(options.serverTimeoutMs);
  if (options.keepAliveMs !== undefined) builder = builder.withKeepAliveInterval(options.keepAliveMs);
  return builder.build();
}

export { HttpTransportType };

/** Every argument a client method receives, in order. */
export function record<T = unknown>(connection: HubConnection, target: string): T[] {
  const seen: T[] = [];
  connection.on(target, (argument: T) => seen.push(argument));
  return seen;
}

/** Polls until `check` returns true; fails with `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Raw HTTP against the hub, for the statuses the official client hides. */
export async function negotiate(t: HubTestApp, token: string | undefined, query = '?negotiateVersion=1') {
  const response = await fetch(`${t.hubUrl}/negotiate${query}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = response.status === 200 ? ((await response.json()) as Record<string, unknown>) : undefined;
  return { status: response.status, body };
}

export const RS = '\u001e';

/** The JSON hub protocol's handshake, as a raw client sends it. */
export const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;

/** A long-polling client driven by hand: negotiate, polls, sends and DELETE as plain fetches. */
export async function rawLongPolling(t: HubTestApp, token: string) {
  const { status, body } = await negotiate(t, token);
  if (status !== 200 || !body) throw new Error(`negotiate answered ${status}`);
  const id = String(body.connectionToken);
  const url = `${t.hubUrl}?id=${id}`;
  const headers = { authorization: `Bearer ${token}` };
  return {
    id,
    connectionId: String(body.connectionId),
    url,
    poll: (signal?: AbortSignal) => fetch(`${url}&_=${Date.now()}`, { headers, ...(signal ? { signal } : {}) }),
    send: (text: string) =>
      fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' }, body: text }),
    remove: () => fetch(url, { method: 'DELETE', headers }),
    /** The handshake, then the first real poll that carries its answer. */
    async connect(): Promise<string> {
      const first = await this.poll();
      if (first.status !== 200 || (await first.text()) !== '') throw new Error('first poll was not an empty 200');
      await this.send(`{"protocol":"json","version":1}${RS}`);
      return (await this.poll()).text();
    },
  };
}

/** Hub messages of one payload; every payload must end exactly on the record separator. */
export function records(payload: string): Record<string, unknown>[] {
  if (payload === '') return [];
  if (!payload.endsWith(RS)) throw new Error(`payload does not end on the record separator: ${payload.slice(-40)}`);
  return payload
    .slice(0, -1)
    .split(RS)
    .map((text) => JSON.parse(text) as Record<string, unknown>);
}

/**
 * `intercom_live_push_age_seconds` as /metrics gives it: how many pushes were observed, and how many
 * of them were at most `le` seconds old (a bucket's bound as printed, e.g. '0.15').
 */
export async function livePushAges(t: HubTestApp): Promise<{ count: number; atMost(le: string): number }> {
  const name = 'intercom_live_push_age_seconds';
  const text = await scrapeMetrics(t.origin);
  return {
    count: seriesValue(text, `${name}_count`),
    atMost(le) {
      const series = `${name}_bucket{le="${le}"}`;
      if (!text.includes(`\n${series} `)) throw new Error(`/metrics has no ${series}`);
      return seriesValue(text, series);
    },
  };
}
