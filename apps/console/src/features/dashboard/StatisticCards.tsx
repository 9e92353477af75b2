import {
  ApartmentOutlined,
  AudioOutlined,
  BankOutlined,
  CustomerServiceOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  UsergroupAddOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { Statistics } from '@intercom/contract';
import { Badge, Card, Col, Row, Statistic } from 'antd';
import { createElement, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';

interface CardSpec {
  field: keyof Statistics;
  title: string;
  icon: ComponentType;
  color: string;
  /** Follows the hub's pushes while it is connected. */
  live?: boolean;
}

const CARDS: CardSpec[] = [
  { field: 'User', title: tk('dashboard.users'), icon: TeamOutlined, color: '#1668dc' },
  { field: 'Online', title: tk('dashboard.online'), icon: WifiOutlined, color: '#389e0d', live: true },
  { field: 'Balance', title: tk('dashboard.balance'), icon: SafetyCertificateOutlined, color: '#d48806' },
  { field: 'Organ', title: tk('dashboard.organs'), icon: ApartmentOutlined, color: '#08979c' },
  { field: 'Channel', title: tk('dashboard.channels'), icon: CustomerServiceOutlined, color: '#722ed1' },
  { field: 'ChannelSum', title: tk('dashboard.channel_members'), icon: UsergroupAddOutlined, color: '#c41d7f' },
  { field: 'RecordSum', title: tk('dashboard.recordings'), icon: AudioOutlined, color: '#cf1322' },
  { field: 'Enterprise', title: tk('dashboard.enterprises'), icon: BankOutlined, color: '#595959' },
];

interface StatisticCardsProps {
  data: Statistics | undefined;
  loading: boolean;
  /** The hub is connected: live counts carry a pulsing dot. */
  live: boolean;
}

/** One card per count of the statistics call; the online count follows the hub. */
export function StatisticCards({ data, loading, live }: StatisticCardsProps) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      {CARDS.map((card) => (
        <Col key={card.field} xs={12} md={8} xl={6}>
          <Card loading={loading && !data} data-testid={`stat-${card.field}`}>
            <Statistic
              title={
                <span>
                  {t(card.title)}
                  {live && card.live && (
                    <Badge
                      status="success"
                      color={card.color}
                      title={t('dashboard.live_hint')}
                      style={{ marginInlineStart: 8 }}
                      data-testid={`live-${card.field}`}
                    />
                  )}
                </span>
              }
              value={data?.[card.field] ?? 0}
              prefix={createElement(card.icon, { style: { color: card.color, marginInlineEnd: 4 } } as object)}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
