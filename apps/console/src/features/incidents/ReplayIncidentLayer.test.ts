import { describe, expect, it } from 'vitest';
import { activeDuring } from './ReplayIncidentLayer';

describe('incident zones on replay', () => {
  it('shows an incident open at any time of the replayed period, and no other', () => {
    const [from, to] = [1_000, 2_000];
    expect(activeDuring({ CreatedAt: 500, ClosedAt: 1_200 }, from, to)).toBe(true); // closed during it
    expect(activeDuring({ CreatedAt: 1_500, ClosedAt: null }, from, to)).toBe(true); // opened during it, open
    expect(activeDuring({ CreatedAt: 500, ClosedAt: null }, from, to)).toBe(true); // open throughout
    expect(activeDuring({ CreatedAt: 100, ClosedAt: 900 }, from, to)).toBe(false); // closed before
    expect(activeDuring({ CreatedAt: 2_100, ClosedAt: null }, from, to)).toBe(false); // opened after
  });
});
