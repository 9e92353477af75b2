import { AimOutlined, CloseOutlined, NodeIndexOutlined } from '@ant-design/icons';
import type { GpsRecord, HeartRate } from '@intercom/contract';
import { Button, Card, Descriptions, Flex, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { UserMapState } from '../../shared/hub/userMapState';
import { CallButton } from '../../talk';
import { useUser } from '../../shared/pickers/pickerQueries';
import { useReverseGeocode } from './api';
import { HeartRateSparkline } from './HeartRateSparkline';
import { FixAge } from './FixAge';
import { SignalBars } from './SignalBars';
import { UserStateTag } from './UserStateTag';

export interface UserCardProps {
  record: GpsRecord;
  /** The user's latest heart rate reading, if the hub has one. */
  heartRate: HeartRate | undefined;
  state: UserMapState;
  following: boolean;
  onFollow: (follow: boolean) => void;
  onClose: () => void;
}

function Address({ record }: { record: GpsRecord }) {
  const { t } = useTranslation();
  const address = useReverseGeocode(record.U_ID, record.lat, record.lon);
  if (address.isPending) return <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>;
  const text = address.data?.address;
  return <span data-testid="map-card-address">{text ?? t('map.address_unresolved')}</span>;
}

/** The selected user: who, state, signal, battery, movement, last fix, address, heart rate; Track and Follow. */
export function UserCard({ record, heartRate, state, following, onFollow, onClose }: UserCardProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUser(record.U_ID);
  const dash = '-';
  return (
    <Card
      size="small"
      title={record.UserName}
      extra={
        <Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t('common.close')} />
      }
      data-testid="map-user-card"
      style={{ width: 300, maxWidth: 'calc(100vw - 24px)' }}
    >
      <Descriptions size="small" column={1} colon={false} styles={{ label: { width: 96 } }}>
        <Descriptions.Item label={t('map.card_phone')}>{record.Phone}</Descriptions.Item>
        <Descriptions.Item label={t('map.card_department')}>{user.data?.OSName ?? dash}</Descriptions.Item>
        <Descriptions.Item label={t('map.card_state')}>
          <UserStateTag state={state} />
        </Descriptions.Item>
        <Descriptions.Item label={t('map.card_signal')}>
          <SignalBars percent={record.signal} />
        </Descriptions.Item>
        <Descriptions.Item label={t('map.card_battery')}>
          {record.battery === null ? (
            dash
          ) : (
            <Progress
              percent={record.battery}
              size="small"
              status={record.battery <= 20 ? 'exception' : 'normal'}
              format={(value) => `${value}%`}
              data-testid="map-card-battery"
            />
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('map.card_speed')}>
          {record.speed === null ? dash : t('map.speed_value', { speed: Math.round(record.speed) })}
          {record.course !== null && ` · ${t('map.course_value', { course: Math.round(record.course) })}`}
        </Descriptions.Item>
        <Descriptions.Item label={t('map.card_fix')}>
          <FixAge time={record.time} />
        </Descriptions.Item>
        <Descriptions.Item label={t('map.card_address')}>
          <Address record={record} />
        </Descriptions.Item>
        <Descriptions.Item label={t('map.card_heart_rate')}>
          <HeartRateSparkline phone={record.Phone} live={heartRate} />
        </Descriptions.Item>
      </Descriptions>
      <Flex justify="end" style={{ marginTop: 8 }}>
        <Space wrap>
          <CallButton kind="private" uid={record.U_ID} name={record.UserName} size="middle" />
          <Button icon={<NodeIndexOutlined />} onClick={() => void navigate(`/main/trace?uid=${record.U_ID}`)}>
            {t('map.track')}
          </Button>
          <Button
            type={following ? 'primary' : 'default'}
            icon={<AimOutlined />}
            aria-pressed={following}
            onClick={() => onFollow(!following)}
          >
            {following ? t('map.following') : t('map.follow')}
          </Button>
        </Space>
      </Flex>
    </Card>
  );
}
