import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize } from './recordingFormat';

describe('recording figures', () => {
  it('shows durations as m:ss, and h:mm:ss from one hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(1_499)).toBe('0:01');
    expect(formatDuration(61_000)).toBe('1:01');
    expect(formatDuration(3_600_000 + 5 * 60_000 + 7_000)).toBe('1:05:07');
    expect(formatDuration(-5)).toBe('0:00');
  });

  it('shows sizes with binary units', () => {
    expect(formatSize(812)).toBe('812 B');
    expect(formatSize(1024)).toBe('1.0 KB');
    expect(formatSize(14_540)).toBe('14.2 KB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
