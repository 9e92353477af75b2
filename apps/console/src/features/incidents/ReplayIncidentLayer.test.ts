import { Limits, type IncidentRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { activeDuring, incidentsDuring } from './ReplayIncidentLayer';

/** Incidents 1..count, each open from `IN_ID * 10` and closed 5 ms later. */
function incidents(count: number): IncidentRow[] {
  return Array.from(
    { length: count },
    (_, i) => ({ IN_ID: i + 1, CreatedAt: (i + 1) * 10, ClosedAt: (i + 1) * 10 + 5 }) as IncidentRow,
  );
}

/** A server of `all` incidents answering pages of the largest size, and the pages asked for. */
function server(all: IncidentRow[]) {
  const asked: number[] = [];
  const readPage = (pageIndex: number) => {
    asked.push(pageIndex);
    const start = pageIndex * Limits.maxPageSize;
    return Promise.resolve({ rows: all.slice(start, start + Limits.maxPageSize), total: all.length });
  };
  return { asked, readPage };
}

describe('incident zones on replay', () => {
  it('shows an incident open at any time of the replayed period, and no other', () => {
    const [from, to] = [1_000, 2_000];
    expect(activeDuring({ CreatedAt: 500, ClosedAt: 1_200 }, from, to)).toBe(true); // closed during it
    expect(activeDuring({ CreatedAt: 1_500, ClosedAt: null }, from, to)).toBe(true); // opened during it, open
    expect(activeDuring({ CreatedAt: 500, ClosedAt: null }, from, to)).toBe(true); // open throughout
    expect(activeDuring({ CreatedAt: 100, ClosedAt: 900 }, from, to)).toBe(false); // closed before
    expect(activeDuring({ CreatedAt: 2_100, ClosedAt: null }, from, to)).toBe(false); // opened after
  });

  it('reads every page, so an incident beyond the first page is drawn', async () => {
    const all = incidents(Limits.maxPageSize * 2 + 3);
    const { asked, readPage } = server(all);
    const last = all.at(-1)!;
    const found = await incidentsDuring(readPage, last.CreatedAt, last.CreatedAt + 1);
    expect(asked).toEqual([0, 1, 2]);
    expect(found.map((row) => row.IN_ID)).toEqual([last.IN_ID]);
  });

  it('stops at the total, even when the last page is full', async () => {
    const { asked, readPage } = server(incidents(Limits.maxPageSize));
    expect(await incidentsDuring(readPage, 0, Number.MAX_SAFE_INTEGER)).toHaveLength(Limits.maxPageSize);
    expect(asked).toEqual([0]);
    const none = server([]);
    expect(await incidentsDuring(none.readPage, 0, 10)).toEqual([]);
    expect(none.asked).toEqual([0]);
  });
});
