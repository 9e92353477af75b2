import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../src/bus/eventBus.js';
import { connectRedisEventBus, type RedisEventBus } from '../../src/bus/redisEventBus.js';

// The real Redis of this machine and CI (.ci/run starts it); the scale-out mode's backplane.
const url = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

function nextEvent(bus: RedisEventBus): Promise<RealtimeEvent> {
  return new Promise((resolve) => {
    const off = bus.subscribe((event) => {
      off();
      resolve(event);
    });
  });
}

describe('Redis backplane between two instances', () => {
  const buses: RedisEventBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  async function pair() {
    const channel = `intercom:test:${randomUUID()}`;
    const errors: unknown[] = [];
    const a = await connectRedisEventBus(url, (e) => errors.push(e), channel);
    const b = await connectRedisEventBus(url, (e) => errors.push(e), channel);
    buses.push(a, b);
    return { a, b, errors };
  }

  it('delivers an event published on one instance to the other, and locally once', async () => {
    const { a, b, errors } = await pair();
    const event: RealtimeEvent = { kind: 'sessionsEnded', E_ID: 7, sessionIds: [1, 2], reason: 'logout' };
    const local: RealtimeEvent[] = [];
    a.subscribe((e) => local.push(e));
    const remote = nextEvent(b);
    a.publish(event);
    expect(await remote).toEqual(event);
    // Give a's own echo time to come back through Redis: it must be skipped.
    await new Promise((r) => setTimeout(r, 200));
    expect(local).toEqual([event]);
    expect(errors).toEqual([]);
  });

  it('carries a users batch through Redis as a binary frame and gives it back whole', async () => {
    const { a, b, errors } = await pair();
    const users = Array.from({ length: 500 }, (_, i) => ({
      E_ID: 7,
      U_ID: i + 1,
      Phone: `136${String(i).padStart(8, '0')}`,
      UserName: i % 2 ? `User ${i}` : `用户 ${i}`,
      position:
        i % 3 ? { lat: 22.5 + i / 1e4, lon: 114, time: 1_000 + i, speed: null, course: 90, interval: 10 } : null,
      battery: i % 5 ? 80 : null,
      signal: 3,
      online: i % 2 === 0,
      onlineAt: 5,
      talking: i % 7 === 0,
    }));
    const remote = nextEvent(b);
    a.publish({ kind: 'users', E_ID: 7, users });
    expect(await remote).toEqual({ kind: 'users', E_ID: 7, users });
    expect(errors).toEqual([]);
  });

  it('keeps instances on other channels apart', async () => {
    const first = await pair();
    const second = await pair();
    const seen: RealtimeEvent[] = [];
    second.b.subscribe((e) => seen.push(e));
    const delivered = nextEvent(first.b);
    first.a.publish({ kind: 'sessionsEnded', E_ID: 1, sessionIds: [3], reason: 'replaced' });
    await delivered;
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);
  });
});
