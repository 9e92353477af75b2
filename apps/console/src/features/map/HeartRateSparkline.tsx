import type { HeartRate, HeartRateRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getList } from '../../shared/api/apiClient';
import { pollWhileSignedIn } from '../../shared/api/pollWhileSignedIn';

/** How far back the card's chart reaches. */
export const HEART_RATE_WINDOW_MS = 60 * 60_000;
const WIDTH = 120;
const HEIGHT = 28;

/**
 * The user's readings of the last hour (`GET /api/GISLocation/HeartRateHis`, SPEC.md 7), asked once
 * per user and again each minute; the newest live reading is added to them as it comes.
 */
function useHeartRateHistory(phone: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['GISLocation', 'HeartRateHis', phone],
    queryFn: async ({ signal }) => {
      const { rows } = await getList<HeartRateRow>('/api/GISLocation/HeartRateHis', {
        query: { phone, H_Time1: Date.now() - HEART_RATE_WINDOW_MS, pageSize: 500 },
        signal,
      });
      return rows;
    },
    staleTime: 60_000,
    refetchInterval: pollWhileSignedIn(60_000),
    meta: { errorToast: false },
  });
}

/** The points of a polyline through the readings (time across, beats per minute up). */
export function sparklinePoints(
  readings: readonly Pick<HeartRate, 'Value' | 'H_Time'>[],
  width = WIDTH,
  height = HEIGHT,
) {
  if (readings.length === 0) return '';
  const t0 = readings[0]!.H_Time;
  const span = Math.max(1, readings.at(-1)!.H_Time - t0);
  const values = readings.map((r) => r.Value);
  const low = Math.min(...values);
  const range = Math.max(1, Math.max(...values) - low);
  const pad = 2;
  return readings
    .map((r) => {
      const x = readings.length === 1 ? width / 2 : ((r.H_Time - t0) / span) * width;
      const y = pad + (1 - (r.Value - low) / range) * (height - 2 * pad);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/** History and live reading in time order, one per time. */
export function mergeReadings(history: readonly HeartRateRow[], live: HeartRate | undefined) {
  const readings = history.map(({ Value, H_Time }) => ({ Value, H_Time }));
  if (live && !readings.some((r) => r.H_Time === live.H_Time))
    readings.push({ Value: live.Value, H_Time: live.H_Time });
  return readings.sort((a, b) => a.H_Time - b.H_Time);
}

/**
 * The heart rate line of the map's user card: the latest value and a small SVG line of the last
 * hour, its lowest and highest value in the tooltip. Only for a user who reports heart rate
 * (a live reading or any of the last hour); others show a dash.
 */
export function HeartRateSparkline({ phone, live }: { phone: string; live: HeartRate | undefined }) {
  const { t } = useTranslation();
  const history = useHeartRateHistory(phone, live !== undefined);
  const readings = mergeReadings(history.data ?? [], live);
  if (readings.length === 0) return <span>-</span>;
  const latest = readings.at(-1)!;
  const values = readings.map((r) => r.Value);
  const summary = t('map.heart_rate_range', {
    low: Math.min(...values),
    high: Math.max(...values),
  });
  return (
    <Flex gap={8} align="center" wrap data-testid="map-card-heart-rate">
      <span>{t('map.heart_rate_value', { value: latest.Value })}</span>
      {readings.length > 1 && (
        <svg
          width={WIDTH}
          height={HEIGHT}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-label={summary}
          data-testid="map-card-heart-chart"
          style={{ overflow: 'visible', maxWidth: '100%' }}
        >
          <title>{summary}</title>
          <polyline points={sparklinePoints(readings)} fill="none" stroke="#cf1322" strokeWidth={1.5} />
        </svg>
      )}
      {readings.length > 1 && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('map.heart_rate_hour')}
        </Typography.Text>
      )}
    </Flex>
  );
}
