import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { FixAge } from './FixAge';

const START = Date.UTC(2026, 11, 6, 8, 0, 0);
const age = () => screen.getByTestId('map-card-fix-age').textContent;
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(START);
});
afterEach(() => vi.useRealTimers());

describe('the age of the last fix on the user card', () => {
  test('moves on each second while the card is open', () => {
    renderWithProviders(<FixAge time={START - 2_000} />);
    expect(age()).toBe('2 sec. ago');
    advance(1_000);
    expect(age()).toBe('3 sec. ago');
    advance(1_000);
    expect(age()).toBe('4 sec. ago');
  });

  test('a fix stamped a few seconds ahead of this clock reads "now", then ages from its time', () => {
    renderWithProviders(<FixAge time={START + 5_000} />);
    expect(age()).toBe('now');
    advance(5_000);
    expect(age()).toBe('now');
    advance(2_000);
    expect(age()).toBe('2 sec. ago');
  });
});
