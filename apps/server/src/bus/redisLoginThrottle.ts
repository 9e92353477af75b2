import { Redis } from 'ioredis';
import { RedisFallback, type ThrottleLog } from './redisFallback.js';
import { MemoryLoginThrottle, type LoginThrottle, type LoginThrottleLimits } from './loginThrottle.js';

/** The part of an ioredis client the throttle uses. */
export interface ThrottleRedisClient {
  readonly status: string;
  pttl(key: string): Promise<number>;
  del(key: string): Promise<number>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * One more wrong password: KEYS[1] counts them (expiring `lockMs` after the last one), KEYS[2] is
 * the lock. At ARGV[1] failures the counter goes and the lock is set for ARGV[2] ms. Atomic, so
 * failures arriving at several instances at once are all counted.
 */
const FAILED_SCRIPT = `
local failures = redis.call('INCR', KEYS[1])
if failures >= tonumber(ARGV[1]) then
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
  return 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
`;

/**
 * The wrong-password lock shared by every instance (`REDIS_URL`): `<prefix>:fail:<phone>` counts
 * wrong passwords in a row, `<prefix>:lock:<phone>` is the lock; both expire on their own.
 *
 * Redis down (not connected, or no answer within the client's command timeout): the throttle logs a
 * warning once and counts on in memory, per instance, until Redis answers again; a lock taken in
 * memory meanwhile still holds afterwards. So an outage never lets a locked-out phone in through an
 * error and never fails a login, but while it lasts each instance allows its own 5 tries.
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly fallback: MemoryLoginThrottle;
  private readonly redisCalls: RedisFallback;

  constructor(
    private readonly redis: ThrottleRedisClient,
    private readonly prefix: string,
    private readonly limits: LoginThrottleLimits,
    log: ThrottleLog,
  ) {
    this.fallback = new MemoryLoginThrottle(limits);
    this.redisCalls = new RedisFallback(redis, log, {
      down: 'terminal login throttle: Redis unavailable; counting wrong passwords per instance until it is back',
      back: 'terminal login throttle: Redis is back; wrong passwords are counted across instances again',
    });
  }

  private call<T>(command: () => Promise<T>): Promise<T | undefined> {
    return this.redisCalls.call(command);
  }

  async lockedFor(phone: string, now: number): Promise<number> {
    const local = this.fallback.lockedForNow(phone, now);
    const shared = await this.call(() => this.redis.pttl(this.key('lock', phone)));
    return Math.max(local, shared !== undefined && shared > 0 ? shared : 0);
  }

  async failed(phone: string, now: number): Promise<void> {
    const done = await this.call(() =>
      this.redis.eval(
        FAILED_SCRIPT,
        2,
        this.key('fail', phone),
        this.key('lock', phone),
        this.limits.maxFailures,
        this.limits.lockMs,
      ),
    );
    if (done === undefined) this.fallback.failedNow(phone, now);
  }

  async succeeded(phone: string): Promise<void> {
    await this.fallback.succeeded(phone);
    await this.call(() => this.redis.del(this.key('fail', phone)));
  }

  prune(now: number): void {
    this.fallback.prune(now);
  }

  private key(kind: 'fail' | 'lock', phone: string): string {
    return `${this.prefix}:${kind}:${phone}`;
  }
}

/**
 * The throttle's own Redis connection: a command waits at most `commandTimeoutMs` (a login never
 * hangs on a stuck Redis), unlike the backplane's, which queues until Redis is back. Resolves once
 * connected, as the backplane does.
 */
export async function connectThrottleRedis(url: string, commandTimeoutMs = 1000): Promise<Redis> {
  const client = new Redis(url, { commandTimeout: commandTimeoutMs, maxRetriesPerRequest: 1 });
  // Connection errors are reported by the backplane's clients (same server) and by the throttle.
  client.on('error', () => undefined);
  if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  return client;
}
