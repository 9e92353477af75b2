import { CloseOutlined } from '@ant-design/icons';
import type { TrackStop } from '@intercom/contract';
import { Button, Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { useReverseGeocode } from '../map';
import { formatSpan } from './formatTrack';

function StopAddress({ userId, stop }: { userId: number; stop: TrackStop }) {
  const { t } = useTranslation();
  const address = useReverseGeocode(userId, stop.lat, stop.lon);
  if (address.isPending) return <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>;
  return <span data-testid="trace-stop-address">{address.data?.address ?? t('map.address_unresolved')}</span>;
}

/** A clicked stop: its number, begin, end, duration and address (the server's geocoder proxy). */
export function StopCard({
  userId,
  stop,
  index,
  onClose,
}: {
  userId: number;
  stop: TrackStop;
  index: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('trace.stop_title', { n: index + 1 })}
      extra={
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('common.close')} onClick={onClose} />
      }
      style={{ width: 300, maxWidth: 'calc(100vw - 48px)', boxShadow: '0 4px 16px rgba(0,0,0,0.15)' }}
      data-testid="trace-stop-card"
    >
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'begin', label: t('trace.stop_begin'), children: formatDateTime(stop.begin, 'second') },
          { key: 'end', label: t('trace.stop_end'), children: formatDateTime(stop.end, 'second') },
          { key: 'duration', label: t('trace.stop_duration'), children: formatSpan(t, stop.end - stop.begin) },
          { key: 'address', label: t('map.card_address'), children: <StopAddress userId={userId} stop={stop} /> },
        ]}
      />
    </Card>
  );
}
