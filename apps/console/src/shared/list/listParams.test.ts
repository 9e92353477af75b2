import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { timeRangeCondition } from './listParams';

describe('timeRangeCondition', () => {
  const from = dayjs('2026-11-01T08:00:00Z');
  const to = dayjs('2026-11-02T08:00:00Z');

  it('gives between, from or up to, by the ends the user picked', () => {
    expect(timeRangeCondition([from, to])).toEqual({ between: [from.valueOf(), to.valueOf()] });
    expect(timeRangeCondition([from, null])).toEqual({ gte: from.valueOf() });
    expect(timeRangeCondition([null, to])).toEqual({ lte: to.valueOf() });
  });

  it('gives no condition for a cleared picker', () => {
    expect(timeRangeCondition(null)).toBeUndefined();
    expect(timeRangeCondition(undefined)).toBeUndefined();
    expect(timeRangeCondition([null, null])).toBeUndefined();
  });
});
