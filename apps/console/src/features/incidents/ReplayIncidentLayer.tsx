import { Limits, type IncidentRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { getList } from '../../shared/api/apiClient';
import { ShapeDraw } from '../../map/ShapeDraw';

const REPLAY_COLOUR = '#fa541c';

/** Whether the incident was open at some time of [from, to] (epoch ms). */
export function activeDuring(row: Pick<IncidentRow, 'CreatedAt' | 'ClosedAt'>, from: number, to: number): boolean {
  return row.CreatedAt <= to && (row.ClosedAt ?? Number.POSITIVE_INFINITY) >= from;
}

/** One page of incidents: `pageIndex` of the largest size, of those opened at `to` or before. */
export type IncidentPageReader = (pageIndex: number) => Promise<{ rows: IncidentRow[]; total: number }>;

/**
 * Every incident open at some time of [from, to]: the server lists those opened by `to`, a page of
 * the largest size at a time until its total is read (or a page comes back short); those closed
 * before `from` are left out here (the generic filter has no "closed after, or still open").
 */
export async function incidentsDuring(readPage: IncidentPageReader, from: number, to: number): Promise<IncidentRow[]> {
  const rows: IncidentRow[] = [];
  for (let pageIndex = 0; ; pageIndex += 1) {
    const page = await readPage(pageIndex);
    rows.push(...page.rows);
    if (page.rows.length < Limits.maxPageSize || rows.length >= page.total) break;
  }
  return rows.filter((row) => activeDuring(row, from, to));
}

/**
 * On track replay: the zones of the incidents of the scope that were open during the replayed period
 * (read-only, orange, as on the live map). Renders inside the MapView; nothing without a period.
 */
export function ReplayIncidentLayer({ from, to }: { from: number | undefined; to: number | undefined }) {
  const period = from !== undefined && to !== undefined;
  const incidents = useQuery({
    enabled: period,
    queryKey: ['Incident', 'QueryData', { replay: { from, to } }],
    queryFn: ({ signal }) =>
      incidentsDuring(
        (pageIndex) =>
          getList<IncidentRow>('/api/Incident/QueryData', {
            query: {
              jsonCondition: JSON.stringify({ CreatedAt: { lte: to } }),
              orderField: 'IN_ID',
              pageIndex,
              pageSize: Limits.maxPageSize,
            },
            signal,
          }),
        from ?? 0,
        to ?? 0,
      ),
  });
  if (!period) return null;
  return (
    <>
      {(incidents.data ?? []).map((row) => (
        <ShapeDraw
          key={row.IN_ID}
          kind={row.Kind === 'polygon' ? 'polygon' : 'circle'}
          value={{
            Center: row.Center ?? undefined,
            Radius: row.Radius ?? undefined,
            Points: row.Points ?? undefined,
          }}
          onChange={() => undefined}
          readOnly
          colour={REPLAY_COLOUR}
        />
      ))}
    </>
  );
}
