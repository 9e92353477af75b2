import { describe, expect, it } from 'vitest';
import { FakeClock, systemClock } from '../../src/core/clock.js';

describe('FakeClock', () => {
  it('runs timeouts and intervals in time order as time advances, each seeing its own due time', async () => {
    const clock = new FakeClock(1_000);
    const seen: string[] = [];
    clock.timeout(() => seen.push(`t300@${clock.now()}`), 300);
    const every = clock.interval(() => seen.push(`i250@${clock.now()}`), 250);
    clock.timeout(() => seen.push(`t250@${clock.now()}`), 250);
    await clock.advance(200);
    expect(seen).toEqual([]);
    await clock.advance(400);
    // Ties run in the order they were set: the interval before the later timeout.
    expect(seen).toEqual(['i250@1250', 't250@1250', 't300@1300', 'i250@1500']);
    expect(clock.now()).toBe(1_600);
    every.cancel();
    await clock.advance(10_000);
    expect(seen).toHaveLength(4);
    expect(clock.timers).toBe(0);
  });

  it('lets the async work a timer starts settle before the next timer runs', async () => {
    const clock = new FakeClock(0);
    const seen: string[] = [];
    clock.timeout(() => {
      void Promise.resolve()
        .then(() => undefined)
        .then(() => seen.push('write done'));
    }, 10);
    clock.timeout(() => seen.push('next timer'), 20);
    await clock.advance(20);
    expect(seen).toEqual(['write done', 'next timer']);
  });

  it('a cancelled timeout never runs; a timer set by a timer runs within the same advance when due', async () => {
    const clock = new FakeClock(0);
    const seen: number[] = [];
    clock.timeout(() => seen.push(1), 10).cancel();
    clock.timeout(() => clock.timeout(() => seen.push(clock.now()), 5), 10);
    await clock.advance(20);
    expect(seen).toEqual([15]);
  });

  it('after a stall, an overdue interval runs once, now, and goes on from there (as Node does)', async () => {
    const clock = new FakeClock(0);
    const ticks: number[] = [];
    clock.interval(() => ticks.push(clock.now()), 50);
    await clock.advance(100);
    clock.stall(2_000);
    expect(ticks).toEqual([50, 100]);
    await clock.advance(0);
    expect(ticks).toEqual([50, 100, 2_100]);
    await clock.advance(100);
    expect(ticks).toEqual([50, 100, 2_100, 2_150, 2_200]);
  });

  it('refuses time going backwards and an interval of no period', async () => {
    const clock = new FakeClock(0);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    expect(() => clock.stall(-5)).toThrow(RangeError);
    expect(() => clock.interval(() => undefined, 0)).toThrow(RangeError);
  });
});

describe('systemClock', () => {
  it('reads real time and fires a real timer', async () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    await new Promise<void>((resolve) => systemClock.timeout(resolve, 1));
  });
});
