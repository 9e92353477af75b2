import { describe, expect, test } from 'vitest';
import {
  FIRST_ATTEMPT_SPREAD_MS,
  MAX_RECONNECT_DELAY_MS,
  isUnauthorized,
  keepRetryingPolicy,
  reconnectDelayMs,
} from './reconnectDelay';

const retry = (previousRetryCount: number, message = 'WebSocket closed with status code: 1006') => ({
  previousRetryCount,
  elapsedMilliseconds: 0,
  retryReason: new Error(message),
});

describe('reconnect back-off', () => {
  test('retries within half a second, then doubles from one second up to the cap', () => {
    const upper = (n: number) => reconnectDelayMs(n, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(upper)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  test('the first attempts of consoles cut off together spread over half a second', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(0);
    expect(reconnectDelayMs(0, () => 0.5)).toBe(FIRST_ATTEMPT_SPREAD_MS / 2);
    const first = Array.from({ length: 1000 }, () => reconnectDelayMs(0));
    expect(Math.max(...first)).toBeLessThanOrEqual(FIRST_ATTEMPT_SPREAD_MS);
    // Not all in one instant: more than half of ten 50 ms slices get some.
    expect(new Set(first.map((ms) => Math.min(9, Math.floor(ms / 50)))).size).toBeGreaterThan(5);
  });

  test('each wait is drawn between half and all of its step', () => {
    expect(reconnectDelayMs(3, () => 0)).toBe(2000);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(3000);
    for (let n = 1; n < 12; n++) {
      const delay = reconnectDelayMs(n);
      expect(delay).toBeGreaterThanOrEqual(Math.min(MAX_RECONNECT_DELAY_MS, 1000 * 2 ** (n - 1)) / 2);
      expect(delay).toBeLessThanOrEqual(MAX_RECONNECT_DELAY_MS);
    }
  });

  test('never gives up, however long the server is away', () => {
    const policy = keepRetryingPolicy(() => 1);
    expect(policy.nextRetryDelayInMilliseconds(retry(0))).toBe(FIRST_ATTEMPT_SPREAD_MS);
    expect(policy.nextRetryDelayInMilliseconds(retry(1_000))).toBe(MAX_RECONNECT_DELAY_MS);
    expect(policy.nextRetryDelayInMilliseconds(retry(Number.MAX_SAFE_INTEGER))).toBe(MAX_RECONNECT_DELAY_MS);
  });

  test('stops after a 401: the session is over and the same token cannot help', () => {
    const policy = keepRetryingPolicy();
    const message = "Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'";
    expect(policy.nextRetryDelayInMilliseconds(retry(2, message))).toBeNull();
    expect(isUnauthorized(new Error(message))).toBe(true);
    expect(isUnauthorized(new Error("Status code '404'"))).toBe(false);
    expect(isUnauthorized('401')).toBe(false);
  });
});
