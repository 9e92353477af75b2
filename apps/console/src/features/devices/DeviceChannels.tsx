import type { DeviceRow } from '@intercom/contract';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** `rids` of a device (SPEC.md 3): the channels its user belongs to, by name, read-only. */
export function DeviceChannels({ device }: { device: Pick<DeviceRow, 'rids' | 'ChannelNames'> }) {
  const { t } = useTranslation();
  if (device.rids.length === 0) return <Typography.Text type="secondary">{t('devices.channels_none')}</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {device.rids.map((cid, i) => (
        <Tag key={cid} title={t('devices.channel_id', { id: cid })}>
          {device.ChannelNames[i] ?? cid}
        </Tag>
      ))}
    </Space>
  );
}
