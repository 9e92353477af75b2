import { describe, expect, test } from 'vitest';
import { relativeTime } from './relativeTime';

const now = 1_800_000_000_000;

describe('relativeTime', () => {
  test('reads as the dispatcher would say it, in the chosen language', () => {
    expect(relativeTime(now - 2 * 60_000, now, 'en')).toBe('2 min. ago');
    expect(relativeTime(now - 3 * 3_600_000, now, 'en')).toBe('3 hr. ago');
    expect(relativeTime(now, now, 'en')).toBe('now');
    expect(relativeTime(now - 2 * 60_000, now, 'zh')).toBe('2分钟前');
  });

  test('never reads as a future time: a fix stamped ahead of this clock is "now"', () => {
    expect(relativeTime(now + 5_000, now, 'en')).toBe('now');
    expect(relativeTime(now + 3 * 60_000, now, 'en')).toBe('now');
    expect(relativeTime(now + 5_000, now, 'zh')).toBe(relativeTime(now, now, 'zh'));
  });
});
