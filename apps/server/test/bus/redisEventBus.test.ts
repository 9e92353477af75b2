import { describe, expect, it } from 'vitest';
import type { LiveUser, RealtimeEvent } from '../../src/bus/eventBus.js';
import { RedisEventBus, type RedisClient } from '../../src/bus/redisEventBus.js';
import { encodeUsersFrame } from '../../src/bus/usersFrame.js';
import { LiveState } from '../../src/live/liveState.js';

// The Redis backplane's own rules over a broker in memory (test/bus/redisBus.redis.test.ts runs the
// real Redis): local delivery, no echo, users batches as binary frames, LiveStates that agree.

const failOnError = (error: unknown) => {
  throw error;
};

/** A broker in memory with the ioredis surface the backplane uses. */
function fakeRedis() {
  type Listener = (channel: Buffer, message: Buffer) => void;
  const subscribers = new Set<{ channels: Set<string>; listener: Listener }>();
  const client = (): RedisClient => {
    const entry = { channels: new Set<string>(), listener: (() => undefined) as Listener };
    subscribers.add(entry);
    return {
      publish(channel: string, message: string | Buffer) {
        const bytes = Buffer.from(message);
        for (const s of subscribers) {
          if (s.channels.has(channel)) queueMicrotask(() => s.listener(Buffer.from(channel), bytes));
        }
        return Promise.resolve(1);
      },
      subscribe(...channels: string[]) {
        for (const channel of channels) entry.channels.add(channel);
        return Promise.resolve();
      },
      on(event: string, listener: (...args: never[]) => void) {
        if (event === 'messageBuffer') entry.listener = listener as Listener;
        return this;
      },
      quit() {
        subscribers.delete(entry);
        return Promise.resolve();
      },
    };
  };
  return { client };
}

describe('RedisEventBus', () => {
  it('delivers locally at once and to other instances once, never echoing to the publisher', async () => {
    const redis = fakeRedis();
    const one = new RedisEventBus(redis.client(), redis.client(), 'ch', failOnError);
    const two = new RedisEventBus(redis.client(), redis.client(), 'ch', failOnError);
    await one.start();
    await two.start();
    const atOne: RealtimeEvent[] = [];
    const atTwo: RealtimeEvent[] = [];
    one.subscribe((event) => atOne.push(event));
    two.subscribe((event) => atTwo.push(event));
    const event: RealtimeEvent = { kind: 'sessionsEnded', E_ID: 1, sessionIds: [5], reason: 'logout' };
    one.publish(event);
    expect(atOne).toEqual([event]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(atOne).toEqual([event]);
    expect(atTwo).toEqual([event]);
    await one.close();
    await two.close();
  });

  it('carries a users batch to the other instance as one binary frame, and drops a bad frame with an error', async () => {
    const redis = fakeRedis();
    const errors: unknown[] = [];
    const publisher = redis.client();
    const sent: { channel: string; message: string | Buffer }[] = [];
    const watched: RedisClient = {
      ...publisher,
      publish(channel, message) {
        sent.push({ channel, message });
        return publisher.publish(channel, message);
      },
    };
    const one = new RedisEventBus(watched, redis.client(), 'ch', (error) => errors.push(error));
    const two = new RedisEventBus(redis.client(), redis.client(), 'ch', (error) => errors.push(error));
    await one.start();
    await two.start();
    const atTwo: RealtimeEvent[] = [];
    two.subscribe((event) => atTwo.push(event));
    const users: LiveUser[] = [1, 2].map((U_ID) => ({
      E_ID: 4,
      U_ID,
      Phone: `13${U_ID}`,
      UserName: `用户 ${U_ID}`,
      position: { lat: 22.5, lon: 114, time: 1_000 + U_ID, speed: null, course: 90, interval: 10 },
      battery: null,
      signal: 70,
      online: true,
      onlineAt: 5,
      talking: U_ID === 2,
    }));
    one.publish({ kind: 'users', E_ID: 4, users });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.channel).toBe('ch:users');
    expect(Buffer.isBuffer(sent[0]!.message)).toBe(true);
    expect(atTwo).toEqual([{ kind: 'users', E_ID: 4, users }]);
    // A frame of a version this instance does not know: reported, nothing delivered.
    const unknown = encodeUsersFrame('another instance', 4, users);
    unknown[0] = 9;
    await publisher.publish('ch:users', unknown);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(atTwo).toHaveLength(1);
    // Both instances report it; neither delivers it.
    expect(errors.map(String)).toEqual([
      expect.stringContaining('version 9 is not known here'),
      expect.stringContaining('version 9 is not known here'),
    ]);
    await one.close();
    await two.close();
  });

  it('lets two LiveStates on two instances agree', async () => {
    const redis = fakeRedis();
    const busOne = new RedisEventBus(redis.client(), redis.client(), 'ch', failOnError);
    const busTwo = new RedisEventBus(redis.client(), redis.client(), 'ch', failOnError);
    await busOne.start();
    await busTwo.start();
    const one = new LiveState(busOne);
    const two = new LiveState(busTwo);
    one.reportPosition({ E_ID: 3, U_ID: 1, lat: 5, lon: 6, time: 1 });
    one.setOnline({ E_ID: 3, U_ID: 1 }, true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(two.user(3, 1)).toEqual(one.user(3, 1));
    expect(two.onlineCount([3])).toBe(1);
  });
});
