import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { RedisFallback, type FallbackRedisClient, type ThrottleLog } from './redisFallback.js';

/**
 * One more request in KEYS[1]'s window of ARGV[1] ms: the count, and the ms left of the window.
 * Atomic, so requests of one IP at several instances at once are all counted.
 */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

interface Window {
  count: number;
  resetAt: number;
}

/** Fixed windows per key in memory: the store while Redis is down; bounded, the oldest go first. */
export class MemoryWindows {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly maxKeys = 10_000) {}

  incr(key: string, timeWindow: number, now = Date.now()): { current: number; ttl: number } {
    let window = this.active(key, now);
    if (!window) {
      window = { count: 0, resetAt: now + timeWindow };
      if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    }
    window.count += 1;
    this.windows.delete(key);
    this.windows.set(key, window);
    return { current: window.count, ttl: window.resetAt - now };
  }

  /** The count of the key's running window, without counting (0 when none runs). */
  current(key: string, now = Date.now()): number {
    return this.active(key, now)?.count ?? 0;
  }

  /** The count of the key's running window and the ms left of it, without counting ({0, 0} when none runs). */
  peek(key: string, now = Date.now()): { current: number; ttl: number } {
    const window = this.active(key, now);
    return window ? { current: window.count, ttl: window.resetAt - now } : { current: 0, ttl: 0 };
  }

  private active(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= now) this.windows.delete(key);
    return window && window.resetAt > now ? window : undefined;
  }
}

/**
 * The per-IP request limit (`LOGIN_IP_LIMIT_PER_MINUTE` on Login, ChangePassword, Refresh) shared by
 * every instance: `<prefix>:<METHOD><url>:<ip>` counts an IP's requests to one route in a window
 * (INCR, PEXPIRE on the first). Redis down (not connected, or no answer within the client's 1 s
 * command timeout): counted in memory on this instance, with one warning, until Redis answers again
 * (one info line); an IP over the limit in memory stays refused for the rest of that window even
 * once Redis is back. So a Redis outage never fails a login and never lifts the limit, but while it
 * lasts each instance allows its own quota.
 */
export function redisRateLimitStore(
  redis: FallbackRedisClient,
  prefix: string,
  log: ThrottleLog,
): FastifyRateLimitStoreCtor {
  const fallback = new RedisFallback(redis, log, {
    down: 'login limit per IP: Redis unavailable; counting requests per instance until it is back',
    back: 'login limit per IP: Redis is back; requests are counted across instances again',
  });
  const memory = new MemoryWindows();

  class RedisRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: object,
      private readonly keyPrefix = `${prefix}:`,
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const fullKey = this.keyPrefix + key;
      void this.count(fullKey, timeWindow).then((result) => callback(null, result));
    }

    /** The plugin passes the route as `routeInfo` (its typings say otherwise); one counter per route. */
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new RedisRateLimitStore({}, `${this.keyPrefix}${String(route.method)}${String(route.url)}:`);
    }

    private async count(key: string, timeWindow: number): Promise<{ current: number; ttl: number }> {
      const shared = await fallback.call(() => redis.eval(INCR_SCRIPT, 1, key, timeWindow));
      if (!Array.isArray(shared)) return memory.incr(key, timeWindow);
      const [current, ttl] = shared.map(Number) as [number, number];
      return { current: Math.max(current, memory.current(key)), ttl };
    }
  }
  return RedisRateLimitStore;
}

/**
 * Fixed windows of counts per key, for a limit that a route option cannot express (the failed
 * `/terminal` logins of a client address): count one more, or read the count without counting.
 * `now` moves the in-memory windows only (tests' fake time); Redis keeps its own time.
 */
export interface CountWindows {
  /** One more in the key's window (a new window of `windowMs` when none runs): the count and the ms left. */
  incr(key: string, windowMs: number, now?: number): Promise<{ current: number; ttl: number }>;
  /** The key's count and the ms left of its window, without counting ({0, 0} when none runs). */
  peek(key: string, now?: number): Promise<{ current: number; ttl: number }>;
}

/** The windows of one process (no `REDIS_URL`). */
export function memoryCountWindows(windows = new MemoryWindows()): CountWindows {
  return {
    incr: (key, windowMs, now) => Promise.resolve(windows.incr(key, windowMs, now)),
    peek: (key, now) => Promise.resolve(windows.peek(key, now)),
  };
}

/** The count of KEYS[1] and the ms left of its window, without counting; {0, 0} when it has none. */
const PEEK_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}
`;

/**
 * The same store as the per-IP request limits (`redisRateLimitStore`: one Redis key per window,
 * `<prefix>:<key>`, INCR and PEXPIRE in one script) for counts a route option cannot take. Redis down:
 * counted in memory on this instance, with one warning, until Redis answers again; a count reached in
 * memory meanwhile still holds for the rest of its window once Redis is back.
 */
export function redisCountWindows(
  redis: FallbackRedisClient,
  prefix: string,
  log: ThrottleLog,
  what: string,
): CountWindows {
  const fallback = new RedisFallback(redis, log, {
    down: `${what}: Redis unavailable; counting per instance until it is back`,
    back: `${what}: Redis is back; counted across instances again`,
  });
  const memory = new MemoryWindows();
  const pair = (answer: unknown) => (Array.isArray(answer) ? (answer.map(Number) as [number, number]) : undefined);
  return {
    async incr(key, windowMs) {
      const fullKey = `${prefix}:${key}`;
      const shared = pair(await fallback.call(() => redis.eval(INCR_SCRIPT, 1, fullKey, windowMs)));
      if (!shared) return memory.incr(fullKey, windowMs);
      return { current: Math.max(shared[0], memory.current(fullKey)), ttl: shared[1] };
    },
    async peek(key) {
      const fullKey = `${prefix}:${key}`;
      const local = memory.peek(fullKey);
      const shared = pair(await fallback.call(() => redis.eval(PEEK_SCRIPT, 1, fullKey)));
      return shared && shared[0] >= local.current ? { current: shared[0], ttl: shared[1] } : local;
    },
  };
}
