import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Notification } from '@intercom/contract';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../core/clock.js';
import { MemoryAlarmEpisodes, RedisAlarmEpisodes, type AlarmEpisodes } from '../bus/alarmEpisodes.js';
import { MemoryLoginThrottle, type LoginThrottle, type LoginThrottleLimits } from '../bus/loginThrottle.js';
import type { ThrottleLog } from '../bus/redisFallback.js';
import { RedisLoginThrottle, connectThrottleRedis } from '../bus/redisLoginThrottle.js';
import { InProcessEventBus, type ErrorSink, type EventBus } from '../bus/eventBus.js';
import { LiveState } from './liveState.js';
import { connectRedisEventBus } from '../bus/redisEventBus.js';
import {
  memoryCountWindows,
  redisCountWindows,
  redisRateLimitStore,
  type CountWindows,
} from '../bus/redisRateLimitStore.js';

/**
 * The event bus, the live state and the terminal login throttle: created with the other
 * dependencies, fed by the terminal gateway.
 */
export interface Realtime {
  bus: EventBus;
  live: LiveState;
  /**
   * A wrong-password lock (terminal logins; console logins of unknown names): in memory, or shared in
   * Redis with `REDIS_URL` under `<prefix>:<name>:*` (default name `terminal-login`).
   */
  loginThrottle(limits: LoginThrottleLimits, log: ThrottleLog, name?: string): LoginThrottle;
  /**
   * Who is inside a low-battery or heart-rate alarm episode: in Redis under `<prefix>:alarm:*` with
   * `REDIS_URL`, else in memory seeded with the unhandled alarms of the database.
   */
  alarmEpisodes(log: ThrottleLog): AlarmEpisodes;
  /**
   * The store of @fastify/rate-limit (the per-IP limits of Login, Refresh, ChangePassword): shared
   * in Redis under `<prefix>:rate:*` with `REDIS_URL`; undefined (the plugin's memory) without.
   */
  rateLimitStore(log: ThrottleLog): FastifyRateLimitStoreCtor | undefined;
  /**
   * Counts per key in fixed windows, in the same store as `rateLimitStore` (Redis keys
   * `<prefix>:rate:<name>:<key>` with `REDIS_URL`, else memory): the failed `/terminal` logins of a
   * client address. `what` names it in the log lines of a Redis outage.
   */
  countWindows(log: ThrottleLog, name: string, what: string): CountWindows;
  /** Where failures inside listeners and the backplane are reported (the app logger, once it exists). */
  reportErrorsTo(sink: ErrorSink): void;
  /** With REDIS_URL: where other shared state (the talk floors) keeps its keys and channels. */
  redis: { url: string; prefix: string } | null;
  close(): Promise<void>;
}

/**
 * What the database holds that a starting instance needs: the unhandled alarms (shown at once) and
 * who is inside a battery or heart-rate episode (not alarmed again). modules/notify reads them.
 */
export interface UnhandledAlarms {
  alarms(): Promise<Notification[]>;
  episodes(): Promise<{ U_ID: number; NType: string }[]>;
}

export interface RealtimeOptions {
  /**
   * Start of every Redis channel and key name (`<prefix>:realtime`, `<prefix>:terminal-login:*`);
   * tests give each run its own so parallel runs never meet. Default: REDIS_PREFIX (`intercom`).
   */
  redisPrefix?: string;
}

const toStderr: ErrorSink = (error, context) => {
  const detail = error instanceof Error ? error.message : String(error);
  process.stderr.write(`realtime: ${context}: ${detail}\n`);
};

/** In-process bus and throttle by default; Redis between instances when REDIS_URL is set. */
export async function createRealtime(
  config: Config,
  unhandled: UnhandledAlarms,
  options: RealtimeOptions = {},
  /** The live state's time (AppDeps.clock). */
  clock: Clock = systemClock,
): Promise<Realtime> {
  const prefix = options.redisPrefix ?? config.redisPrefix;
  let sink = toStderr;
  const onError: ErrorSink = (error, context) => sink(error, context);
  const bus = config.redisUrl
    ? await connectRedisEventBus(config.redisUrl, onError, `${prefix}:realtime`)
    : new InProcessEventBus(onError);
  const throttleRedis = config.redisUrl ? await connectThrottleRedis(config.redisUrl) : undefined;
  const live = new LiveState(bus, { clock });
  live.showUnhandled(await unhandled.alarms());
  const memoryEpisodes = new MemoryAlarmEpisodes();
  if (!throttleRedis) memoryEpisodes.loadUnhandled(await unhandled.episodes());
  return {
    bus,
    live,
    loginThrottle(limits, log, name = 'terminal-login') {
      return throttleRedis
        ? new RedisLoginThrottle(throttleRedis, `${prefix}:${name}`, limits, log)
        : new MemoryLoginThrottle(limits);
    },
    alarmEpisodes(log) {
      return throttleRedis ? new RedisAlarmEpisodes(throttleRedis, `${prefix}:alarm`, log) : memoryEpisodes;
    },
    rateLimitStore(log) {
      return throttleRedis ? redisRateLimitStore(throttleRedis, `${prefix}:rate`, log) : undefined;
    },
    countWindows(log, name, what) {
      return throttleRedis
        ? redisCountWindows(throttleRedis, `${prefix}:rate:${name}`, log, what)
        : memoryCountWindows();
    },
    reportErrorsTo(next) {
      sink = next;
    },
    redis: config.redisUrl ? { url: config.redisUrl, prefix } : null,
    async close() {
      live.close();
      await Promise.allSettled([bus.close(), throttleRedis?.quit()]);
    },
  };
}
