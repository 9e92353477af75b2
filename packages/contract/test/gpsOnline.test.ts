import { describe, expect, it } from 'vitest';
import { gpsStaleAt, isGpsOnline } from '../src/index.js';

describe('isGpsOnline', () => {
  const fix = 1_767_225_600_000;

  it('is online up to 1.5 report intervals after the fix and stale after', () => {
    expect(isGpsOnline(fix, 60, fix)).toBe(true);
    expect(isGpsOnline(fix, 60, fix + 89_999)).toBe(true);
    expect(isGpsOnline(fix, 60, fix + 90_000)).toBe(true);
    expect(isGpsOnline(fix, 60, fix + 90_001)).toBe(false);
    expect(isGpsOnline(fix, 10, fix + 20_000)).toBe(false);
  });

  it('counts a fix from a clock ahead of ours as fresh', () => {
    expect(isGpsOnline(fix + 5_000, 1, fix)).toBe(true);
  });

  it('is never online without a usable interval or time', () => {
    expect(isGpsOnline(fix, 0, fix)).toBe(false);
    expect(isGpsOnline(fix, -5, fix)).toBe(false);
    expect(isGpsOnline(fix, Number.NaN, fix)).toBe(false);
    expect(isGpsOnline(Number.NaN, 60, fix)).toBe(false);
  });

  it('gpsStaleAt is the first instant isGpsOnline is false', () => {
    for (const interval of [1, 7, 60, 3600]) {
      const at = gpsStaleAt(fix, interval);
      expect(isGpsOnline(fix, interval, at - 1)).toBe(true);
      expect(isGpsOnline(fix, interval, at)).toBe(false);
    }
  });
});
