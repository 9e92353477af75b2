import { randomUUID } from 'node:crypto';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisRateLimitStore } from '../../src/bus/redisRateLimitStore.js';
import type { ThrottleLog } from '../../src/bus/redisFallback.js';
import { connectThrottleRedis } from '../../src/bus/redisLoginThrottle.js';
import { loginRaw } from '../helper.js';
import { REDIS_URL, startHubPair } from '../hub/hubPair.js';
import { tenant } from '../hub/hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// LOGIN_IP_LIMIT_PER_MINUTE counts an IP's logins at every instance together (Redis), and keeps
// counting in memory while Redis is down.
const LIMIT = 4;

describe('the per-IP login limit across two instances', () => {
  const s = useTestApp(() => startHubPair({ sessionCheckMs: 60_000 }, { LOGIN_IP_LIMIT_PER_MINUTE: String(LIMIT) }));

  it('refuses the login past the limit with 429 / 4029, whichever instance the tries reached', async () => {
    const user = await tenant(s.a);
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const input = { username: user.username, password: user.password, code: user.code };
    const answers: number[] = [];
    for (const app of [s.a.app, s.b.app, s.a.app, s.b.app, s.a.app, s.b.app]) {
      answers.push((await loginRaw(app, input, { ip })).statusCode);
    }
    // Per instance, each would have allowed four.
    expect(answers).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await loginRaw(s.b.app, input, { ip });
    expect(refused.json()).toMatchObject({ BaseResult: { Code: 4029 } });
    // Another IP is not affected.
    expect((await loginRaw(s.b.app, input, { ip: '10.8.0.1' })).statusCode).toBe(200);
  });
});

/** The real Redis, with a switch that makes every command fail as a dead or stuck server would. */
class SwitchableRedis {
  failing = false;
  constructor(private readonly real: Redis) {}
  get status() {
    return this.real.status;
  }
  eval(script: string, numKeys: number, ...args: (string | number)[]) {
    return this.failing ? Promise.reject(new Error('Command timed out')) : this.real.eval(script, numKeys, ...args);
  }
}

function incr(store: FastifyRateLimitStore, key: string, timeWindow = 60_000) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(
      key,
      (error, result) => (error || !result ? reject(error ?? new Error('no result')) : resolve(result)),
      timeWindow,
      LIMIT,
    ),
  );
}

describe('the Redis rate-limit store', () => {
  let redis: Redis;
  const prefix = `intercom:test:${randomUUID()}:rate`;
  const route = { routeInfo: { method: 'POST', url: '/api/UAuth/Login' } };
  beforeAll(async () => {
    redis = await connectThrottleRedis(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
  });

  function storeOn(client: SwitchableRedis | Redis) {
    const lines: string[] = [];
    const log: ThrottleLog = { warn: (_o, m) => lines.push(`warn ${m}`), info: (_o, m) => lines.push(`info ${m}`) };
    const Store = redisRateLimitStore(client, prefix, log);
    return { store: new Store({}).child(route as never), lines };
  }

  it('keeps one counter per route and IP in a Redis key that expires with the window', async () => {
    const { store } = storeOn(redis);
    expect(await incr(store, '10.0.0.1', 5_000)).toMatchObject({ current: 1 });
    const second = await incr(store, '10.0.0.1', 5_000);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(5_000);
    const key = `${prefix}:POST/api/UAuth/Login:10.0.0.1`;
    expect(await redis.get(key)).toBe('2');
    expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it('counts in memory while Redis fails, logs it once each way, and keeps refusing after Redis is back', async () => {
    const client = new SwitchableRedis(redis);
    const { store, lines } = storeOn(client);
    const ip = '10.0.0.2';
    await incr(store, ip);
    client.failing = true;
    const during: number[] = [];
    for (let i = 0; i < 6; i++) during.push((await incr(store, ip)).current);
    // Counted on (never an error, never a reset to zero that would lift the limit).
    expect(during).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn login limit per IP: Redis unavailable/);
    client.failing = false;
    // Redis holds 2 now, but the window counted in memory during the outage still refuses.
    expect((await incr(store, ip)).current).toBeGreaterThan(LIMIT);
    expect(lines.at(-1)).toMatch(/^info login limit per IP: Redis is back/);
  });

  it('never hangs or throws when Redis cannot be reached at all', async () => {
    const { Redis: RedisClient } = await import('ioredis');
    const dead = new RedisClient('redis://127.0.0.1:1', { commandTimeout: 200, maxRetriesPerRequest: 1 });
    dead.on('error', () => undefined);
    try {
      const { store } = storeOn(dead);
      // Nothing waits on a Redis that is not connected: no command is sent to it at all (each one
      // would wait out the command timeout), the requests are counted in memory at once.
      const sent = vi.spyOn(dead, 'eval');
      const counts: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) counts.push((await incr(store, '10.0.0.3')).current);
      expect(counts).toEqual([1, 2, 3, 4, 5]);
      expect(sent).not.toHaveBeenCalled();
    } finally {
      dead.disconnect();
    }
  });
});
