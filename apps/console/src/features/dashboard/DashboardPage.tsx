import { ReloadOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Flex, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/SessionContext';
import { ROLE_LABELS } from '../account';
import { useLiveStatistics } from './api';
import { FirstRunChecklist } from './FirstRunChecklist';
import { StatisticCards } from './StatisticCards';
import { LoadingSkeleton } from '../../shared/ui/LoadingSkeleton';

const StatisticsCharts = lazy(() => import('./StatisticsCharts'));

/** The root's target: who is signed in, the counts as cards, and charts of them. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { info } = useSession();
  const { statistics, data, live } = useLiveStatistics();
  return (
    <Flex vertical gap={16}>
      <Card>
        <Flex justify="space-between" align="center" wrap gap={12}>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('dashboard.welcome', { name: info.name })}
            </Typography.Title>
            <Typography.Text type="secondary">
              {info.E_Name} ({info.E_Code}){' '}
              <Tag color={info.IsAdmin ? 'blue' : 'green'}>{t(ROLE_LABELS[info.role])}</Tag>
            </Typography.Text>
          </div>
          <Flex align="center" gap={12}>
            {live && (
              <Tooltip title={t('dashboard.live_hint')}>
                <Tag color="success" data-testid="live-indicator" style={{ marginInlineEnd: 0 }}>
                  <Badge status="success" color="#389e0d" style={{ marginInlineEnd: 6 }} />
                  {t('dashboard.live')}
                </Tag>
              </Tooltip>
            )}
            <Button icon={<ReloadOutlined />} onClick={() => void statistics.refetch()} loading={statistics.isFetching}>
              {t('common.refresh')}
            </Button>
          </Flex>
        </Flex>
      </Card>
      {data && <FirstRunChecklist stats={data} />}
      <StatisticCards data={data} loading={statistics.isPending} live={live} />
      {data && (
        <Suspense fallback={<LoadingSkeleton rows={8} />}>
          <StatisticsCharts data={data} />
        </Suspense>
      )}
    </Flex>
  );
}
