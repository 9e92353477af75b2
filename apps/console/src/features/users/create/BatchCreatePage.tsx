import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Segmented, Statistic, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useEnterprise } from '../../enterprises';
import { orgChildrenQuery } from '../../organ';
import { BatchForm } from './BatchForm';
import { ListForm } from './ListForm';

type Mode = 'batch' | 'list';

/** /Managent/BatchUser: many users at once, from a prefix and a start number or typed into a list. */
export default function BatchCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('batch');
  const root = useQuery(orgChildrenQuery(undefined)).data?.[0];
  const enterpriseId = root?.eid;
  const enterprise = useEnterprise(enterpriseId);
  const back = () => void navigate('/Managent/User');

  return (
    <Card
      title={t('batch.title')}
      extra={
        <Button type="link" icon={<ArrowLeftOutlined />} onClick={back}>
          {t('batch.to_users')}
        </Button>
      }
    >
      <Flex justify="space-between" align="center" wrap gap={16} style={{ marginBottom: 24 }}>
        <Segmented<Mode>
          value={mode}
          onChange={setMode}
          options={[
            { value: 'batch', label: t('batch.mode_batch') },
            { value: 'list', label: t('batch.mode_list') },
          ]}
        />
        <Statistic
          title={t('batch.balance', { name: enterprise.data?.E_Name ?? root?.name ?? '' })}
          value={enterprise.data?.Balance ?? '—'}
          loading={enterprise.isPending && enterpriseId !== undefined}
          data-testid="licence-balance"
        />
      </Flex>
      {mode === 'batch' ? (
        <BatchForm enterpriseId={enterpriseId} balance={enterprise.data?.Balance} onBack={back} />
      ) : (
        <ListForm enterpriseId={enterpriseId} onBack={back} />
      )}
    </Card>
  );
}
