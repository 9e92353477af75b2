import { describe, expect, it } from 'vitest';
import { canTake } from './notifyText';

describe('alarm steps', () => {
  it('acknowledges only new alarms', () => {
    expect(canTake('acknowledge', { State: 'new' })).toBe(true);
    expect(canTake('acknowledge', { State: 'acknowledged' })).toBe(false);
    expect(canTake('acknowledge', { State: 'resolved' })).toBe(false);
  });

  it('resolves new and acknowledged alarms, never resolved ones', () => {
    expect(canTake('resolve', { State: 'new' })).toBe(true);
    expect(canTake('resolve', { State: 'acknowledged' })).toBe(true);
    expect(canTake('resolve', { State: 'resolved' })).toBe(false);
  });
});
