import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../src/core/tokenBucket.js';

describe('TokenBucket', () => {
  it('allows the burst at once, then refuses until time refills it', () => {
    const bucket = new TokenBucket(10, 3, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    expect(bucket.take(50)).toBe(false); // half a token
    expect(bucket.take(100)).toBe(true); // 10 a second: one token per 100 ms
    expect(bucket.take(100)).toBe(false);
  });

  it('never holds more than the burst however long it was idle', () => {
    const bucket = new TokenBucket(10, 2, 0);
    const taken = Array.from({ length: 5 }, () => bucket.take(60_000)).filter(Boolean).length;
    expect(taken).toBe(2);
  });

  it('keeps the average rate over a long run', () => {
    const bucket = new TokenBucket(50, 5, 0);
    let taken = 0;
    for (let now = 0; now <= 10_000; now += 5) if (bucket.take(now)) taken += 1;
    expect(taken).toBeGreaterThanOrEqual(500);
    expect(taken).toBeLessThanOrEqual(506);
  });

  it('does not mint tokens when the clock goes back', () => {
    const bucket = new TokenBucket(10, 1, 1_000);
    expect(bucket.take(1_000)).toBe(true);
    expect(bucket.take(500)).toBe(false);
    expect(bucket.take(600)).toBe(false);
  });
});
