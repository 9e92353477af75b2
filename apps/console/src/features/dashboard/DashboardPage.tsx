import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Skeleton, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session/SessionContext';
import { ROLE_LABELS } from '../account/roleLabels';
import { useStatistics } from './api';
import { StatisticCards } from './StatisticCards';

const StatisticsCharts = lazy(() => import('./StatisticsCharts'));

/** The root's target: who is signed in, the counts as cards, and charts of them. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { info } = useSession();
  const statistics = useStatistics();
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
          <Button icon={<ReloadOutlined />} onClick={() => void statistics.refetch()} loading={statistics.isFetching}>
            {t('common.refresh')}
          </Button>
        </Flex>
      </Card>
      <StatisticCards data={statistics.data} loading={statistics.isPending} />
      {statistics.data && (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
          <StatisticsCharts data={statistics.data} />
        </Suspense>
      )}
    </Flex>
  );
}
