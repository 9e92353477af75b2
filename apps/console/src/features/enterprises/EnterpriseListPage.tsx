import { SwapOutlined } from '@ant-design/icons';
import type { EnterpriseRow } from '@intercom/contract';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../../shared/api/useRunAction';
import { TextFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction } from '../../shared/list/ListToolbar';
import type { Condition } from '../../shared/list/listParams';
import { enterpriseResource, useSwitchWorking, useWorkingEnterprise } from './api';
import { EnterpriseDrawer } from './EnterpriseDrawer';
import { formatDateTime } from '../../shared/format/formatDateTime';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';

interface EnterpriseFilterValues {
  E_Name?: string;
  E_Code?: string;
}

const like = (value: string | undefined) => (value?.trim() ? { like: value.trim() } : undefined);

/** /Managent/Enterprise (admin): the sub-enterprises below the working enterprise. */
export default function EnterpriseListPage() {
  const { t } = useTranslation();
  const run = useRunAction();
  const working = useWorkingEnterprise();
  const switchWorking = useSwitchWorking();
  const [editing, setEditing] = useState<{ id: number } | 'create' | null>(null);
  const workingId = working.data?.working.E_ID;

  const columns = useMemo<ColumnsType<EnterpriseRow>>(
    () => [
      { key: 'E_Code', dataIndex: 'E_Code', title: t('enterprises.code'), sorter: true },
      { key: 'E_Name', dataIndex: 'E_Name', title: t('enterprises.name'), sorter: true },
      { key: 'Quota', dataIndex: 'Quota', title: t('enterprises.quota'), sorter: true, align: 'right' },
      {
        key: 'ExpireAt',
        dataIndex: 'ExpireAt',
        title: t('enterprises.expire'),
        sorter: true,
        render: (value: number | null) =>
          value === null ? (
            t('users.never')
          ) : (
            <span>
              {formatDateTime(value, 'day')}
              {value < Date.now() && (
                <Tag color="orange" style={{ marginInlineStart: 8 }}>
                  {t('users.state_expired')}
                </Tag>
              )}
            </span>
          ),
      },
      {
        key: 'Disabled',
        dataIndex: 'Disabled',
        title: t('accounts.state'),
        sorter: true,
        render: (value: number) =>
          value ? <Tag color="red">{t('accounts.disabled')}</Tag> : <Tag color="green">{t('accounts.active')}</Tag>,
      },
      dateTimeColumn('CreatedAt', t('users.created'), { precision: 'day', sorter: true }),
      rowActionsColumn<EnterpriseRow>(t('common.actions'), (enterprise) => ({
        actions: [
          { key: 'edit', label: t('common.edit'), onClick: () => setEditing({ id: enterprise.E_ID }) },
          {
            key: 'work',
            label: t('enterprises.work_in'),
            icon: <SwapOutlined />,
            onClick: () =>
              void run(
                () => switchWorking.mutateAsync(enterprise.E_ID),
                t('enterprises.switched', { name: enterprise.E_Name }),
              ),
          },
        ],
      })),
    ],
    [t, run, switchWorking],
  );

  return (
    <>
      <ListShell<EnterpriseRow, EnterpriseFilterValues>
        title={t('route.enterprises')}
        resource={enterpriseResource}
        columns={columns}
        filters={
          <>
            <TextFilter name="E_Name" label={t('enterprises.name')} />
            <TextFilter name="E_Code" label={t('enterprises.code')} maxLength={32} />
          </>
        }
        toCondition={(values): Condition => ({ E_Name: like(values.E_Name), E_Code: like(values.E_Code) })}
        // The working enterprise itself is not its own sub-enterprise.
        fixedCondition={workingId !== undefined ? { E_ID: { ne: workingId } } : {}}
        actions={[createAction(t('enterprises.create'), () => setEditing('create'))]}
        exportFormats={['csv', 'xlsx']}
        testId="enterprise-list"
      />
      <EnterpriseDrawer target={editing} onClose={() => setEditing(null)} />
    </>
  );
}
