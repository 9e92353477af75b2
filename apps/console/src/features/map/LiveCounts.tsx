import { Flex, Statistic, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHubBursts } from '../../shared/hub/useHubBursts';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { useStatistics } from '../dashboard';

/** How long the online delta of an OnlineChange stays on screen. */
const DELTA_MS = 4_000;

/**
 * All users, chat-online users and GPS-online users of the caller's scope, live: the total from
 * the statistics, the others from the hub. When users come or go, the change shows for a moment.
 */
export function LiveCounts() {
  const { t } = useTranslation();
  const statistics = useStatistics();
  const online = useHubSnapshot((snapshot) => snapshot.onlineCount);
  // A number, so the counts re-render when it changes, not on every burst of positions.
  const gpsOnline = useHubSnapshot((snapshot) => snapshot.gpsOnlineCount);
  const [delta, setDelta] = useState<{ value: number; at: number } | null>(null);

  useHubBursts(({ onlineDelta }) => {
    if (onlineDelta !== 0) setDelta({ value: onlineDelta, at: Date.now() });
  });
  useEffect(() => {
    if (!delta) return;
    const timer = window.setTimeout(() => setDelta(null), DELTA_MS);
    return () => window.clearTimeout(timer);
  }, [delta]);

  const item = (testId: string, title: string, value: number | undefined, extra?: React.ReactNode) => (
    <div data-testid={testId}>
      {/* A dash while unknown, not antd's loading skeleton: that is of another height, and the
          map below resized (its canvas reallocated and redrawn, slow in software) when counts came. */}
      <Statistic title={title} value={value ?? '-'} suffix={extra} />
    </div>
  );
  return (
    <Flex gap={24} wrap aria-live="polite">
      {item('map-count-all', t('map.count_all'), statistics.data?.User)}
      {item(
        'map-count-online',
        t('map.count_online'),
        online,
        delta && (
          <Tag color={delta.value > 0 ? 'green' : 'orange'} data-testid="map-online-delta">
            {delta.value > 0 ? `+${delta.value}` : delta.value}
          </Tag>
        ),
      )}
      {item('map-count-gps', t('map.count_gps'), online === undefined ? undefined : gpsOnline)}
    </Flex>
  );
}
