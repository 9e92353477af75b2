import { Limits, type IncidentRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { getList } from '../../shared/api/apiClient';
import { ShapeDraw } from '../../map/ShapeDraw';

const REPLAY_COLOUR = '#fa541c';

/** Whether the incident was open at some time of [from, to] (epoch ms). */
export function activeDuring(row: Pick<IncidentRow, 'CreatedAt' | 'ClosedAt'>, from: number, to: number): boolean {
  return row.CreatedAt <= to && (row.ClosedAt ?? Number.POSITIVE_INFINITY) >= from;
}

/**
 * On track replay: the zones of the incidents of the scope that were open during the replayed period
 * (read-only, orange, as on the live map). Renders inside the MapView; nothing without a period.
 */
export function ReplayIncidentLayer({ from, to }: { from: number | undefined; to: number | undefined }) {
  const period = from !== undefined && to !== undefined;
  const incidents = useQuery({
    enabled: period,
    queryKey: ['Incident', 'QueryData', { replay: true }],
    queryFn: async ({ signal }) =>
      (
        await getList<IncidentRow>('/api/Incident/QueryData', {
          query: { pageIndex: 0, pageSize: Limits.maxPageSize },
          signal,
        })
      ).rows,
  });
  if (!period) return null;
  return (
    <>
      {(incidents.data ?? [])
        .filter((row) => activeDuring(row, from, to))
        .map((row) => (
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
