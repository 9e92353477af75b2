import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../src/bus/eventBus.js';
import type { ThrottleLog } from '../../src/bus/redisFallback.js';
import {
  RedisLoginThrottle,
  connectThrottleRedis,
  type ThrottleRedisClient,
} from '../../src/bus/redisLoginThrottle.js';
import { LiveState } from '../../src/live/liveState.js';
import { REDIS_URL } from '../terminals/scaleOutApps.js';

const LIMITS = { maxFailures: 5, lockMs: 60_000 };

/** A log that keeps what it was told. */
function recordingLog() {
  const lines: { level: 'warn' | 'info'; message: string }[] = [];
  const log: ThrottleLog = {
    warn: (_obj, message) => lines.push({ level: 'warn', message }),
    info: (_obj, message) => lines.push({ level: 'info', message }),
  };
  return { log, lines };
}

/** The real Redis, with a switch that makes every command fail as a dead or stuck server would. */
class SwitchableRedis implements ThrottleRedisClient {
  failing = false;
  constructor(private readonly real: Redis) {}
  get status() {
    return this.real.status;
  }
  pttl(key: string) {
    return this.failing ? Promise.reject(new Error('Command timed out')) : this.real.pttl(key);
  }
  del(key: string) {
    return this.failing ? Promise.reject(new Error('Command timed out')) : this.real.del(key);
  }
  eval(script: string, numKeys: number, ...args: (string | number)[]) {
    return this.failing ? Promise.reject(new Error('Command timed out')) : this.real.eval(script, numKeys, ...args);
  }
}

describe('RedisLoginThrottle', () => {
  let redis: Redis;
  const prefix = `intercom:test:${randomUUID()}:terminal-login`;
  beforeAll(async () => {
    redis = await connectThrottleRedis(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('keeps the counter and the lock in Redis keys that expire', async () => {
    const throttle = new RedisLoginThrottle(redis, prefix, { maxFailures: 3, lockMs: 5_000 }, recordingLog().log);
    const phone = `139${Date.now() % 1e8}`;
    await throttle.failed(phone, Date.now());
    await throttle.failed(phone, Date.now());
    expect(await redis.get(`${prefix}:fail:${phone}`)).toBe('2');
    expect(await redis.pttl(`${prefix}:fail:${phone}`)).toBeGreaterThan(0);
    expect(await throttle.lockedFor(phone, Date.now())).toBe(0);
    await throttle.failed(phone, Date.now());
    expect(await redis.exists(`${prefix}:fail:${phone}`)).toBe(0);
    const lock = await redis.pttl(`${prefix}:lock:${phone}`);
    expect(lock).toBeGreaterThan(4_000);
    expect(await throttle.lockedFor(phone, Date.now())).toBeGreaterThan(4_000);
  });

  it('counts in memory while Redis fails, logs it once, and keeps that lock after Redis is back', async () => {
    const client = new SwitchableRedis(redis);
    const { log, lines } = recordingLog();
    const throttle = new RedisLoginThrottle(client, prefix, LIMITS, log);
    const phone = `137${Date.now() % 1e8}`;
    await throttle.failed(phone, Date.now());
    client.failing = true;
    for (let i = 0; i < 4; i++) {
      expect(await throttle.lockedFor(phone, Date.now())).toBe(0);
      await throttle.failed(phone, Date.now());
    }
    // Four in memory (not yet five): still open, and no error reached the caller.
    expect(await throttle.lockedFor(phone, Date.now())).toBe(0);
    await throttle.failed(phone, Date.now());
    expect(await throttle.lockedFor(phone, Date.now())).toBeGreaterThan(0);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);

    client.failing = false;
    expect(await throttle.lockedFor(phone, Date.now())).toBeGreaterThan(0);
    expect(lines.at(-1)?.level).toBe('info');
  });

  it('never hangs or throws when Redis cannot be reached at all', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { commandTimeout: 200, maxRetriesPerRequest: 1 });
    dead.on('error', () => undefined);
    try {
      const { log, lines } = recordingLog();
      const throttle = new RedisLoginThrottle(dead, prefix, LIMITS, log);
      // Never hangs: each command gives up after its 200 ms timeout (the test's timeout bounds the rest).
      for (let i = 0; i < 5; i++) await throttle.failed('13800000000', Date.now());
      expect(await throttle.lockedFor('13800000000', Date.now())).toBeGreaterThan(0);
      expect(lines.map((l) => l.level)).toEqual(['warn']);
    } finally {
      dead.disconnect();
    }
  });
});

describe('LiveState and the terminalLogin event', () => {
  it('ignores terminal logins and kinds it does not know', () => {
    const bus = new InProcessEventBus((error) => {
      throw error;
    });
    const live = new LiveState(bus);
    const changes: unknown[] = [];
    live.onChange((change) => changes.push(change));
    bus.publish({ kind: 'terminalLogin', E_ID: 1, U_ID: 2, login: { instance: 'x', connection: 1, at: Date.now() } });
    // An instance of a newer version may publish kinds this one has never heard of.
    const future: unknown = { kind: 'fromTheFuture', E_ID: 1 };
    bus.publish(future as Parameters<typeof bus.publish>[0]);
    expect(changes).toEqual([]);
    expect(live.user(1, 2)).toBeUndefined();
    live.close();
  });
});
