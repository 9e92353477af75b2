import { CheckCircleOutlined, DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { parseLocationValue, type LocationProfileRow } from '@intercom/contract';
import { Alert, Button, Card, Empty, Flex, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useRunAction } from '../../shared/api/useRunAction';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { useWorkingEnterprise } from '../enterprises';
import { useDeleteLocationProfile, useLocationProfiles, useLocrptSet, useSetCurrentLocationProfile } from './api';
import { LocationProfileDrawer, type ProfileTarget } from './LocationProfileDrawer';
import { describeValue, MODE_LABELS } from './locationProfile';
import { editRowAction, rowActionsColumn } from '../../shared/list/RowActions';

const byName = (a: LocationProfileRow, b: LocationProfileRow) => a.SCName.localeCompare(b.SCName);
const valueOf = (row: LocationProfileRow) => parseLocationValue(row.SCValue);

/** What the terminals report with now: the current profile, or the default when none is current. */
function InForce({ enterpriseId }: { enterpriseId: number }) {
  const { t } = useTranslation();
  const locrpt = useLocrptSet(enterpriseId);
  if (!locrpt.data) return null;
  const { key, params } = describeValue(locrpt.data);
  const title =
    locrpt.data.SC_ID === 0
      ? t('settings.reporting_default', { rule: t(key, params) })
      : t('settings.reporting_with', { name: locrpt.data.SCName, rule: t(key, params) });
  return <Alert type="info" showIcon title={title} data-testid="location-in-force" />;
}

/** The GPS configuration panel: the enterprise's named location-report profiles, one of them current. */
export function LocationProfilesPanel() {
  const { t } = useTranslation();
  const working = useWorkingEnterprise();
  const enterpriseId = working.data?.working.E_ID;
  const profiles = useLocationProfiles(enterpriseId);
  const makeCurrent = useSetCurrentLocationProfile();
  const remove = useDeleteLocationProfile();
  const confirm = useConfirm();
  const run = useRunAction();
  const errorMessage = useErrorMessage();
  const [target, setTarget] = useState<ProfileTarget>(null);
  const failure: unknown = working.isError ? working.error : profiles.isError ? profiles.error : null;

  const columns: ColumnsType<LocationProfileRow> = [
    {
      key: 'SCName',
      title: t('settings.profile_name'),
      sorter: byName,
      render: (_, row) => (
        <Space size={6} wrap>
          <Typography.Text strong={row.IsCurrent === 1}>{row.SCName}</Typography.Text>
          {row.IsCurrent === 1 && (
            <Tag color="green" icon={<CheckCircleOutlined />}>
              {t('settings.current')}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      key: 'mode',
      title: t('settings.mode'),
      render: (_, row) => {
        const value = valueOf(row);
        return value ? t(MODE_LABELS[value.mode]) : '-';
      },
    },
    {
      key: 'interval',
      title: t('settings.interval'),
      align: 'right',
      sorter: (a, b) => (valueOf(a)?.interval ?? 0) - (valueOf(b)?.interval ?? 0),
      render: (_, row) => t('settings.seconds_value', { value: valueOf(row)?.interval ?? 0 }),
    },
    {
      key: 'distance',
      title: t('settings.distance'),
      align: 'right',
      sorter: (a, b) => (valueOf(a)?.distance ?? 0) - (valueOf(b)?.distance ?? 0),
      render: (_, row) => t('settings.metres_value', { value: valueOf(row)?.distance ?? 0 }),
    },
    rowActionsColumn<LocationProfileRow>(
      t('common.actions'),
      (row) => ({
        actions: [
          {
            key: 'current',
            label: t('settings.make_current'),
            hidden: row.IsCurrent === 1,
            onClick: () =>
              confirm({
                title: t('settings.make_current_confirm', { name: row.SCName }),
                content: t('settings.make_current_note'),
                onOk: () => run(() => makeCurrent.mutateAsync(row.SC_ID)),
              }),
          },
          editRowAction(t('common.edit'), t('settings.edit_named', { name: row.SCName }), () => setTarget(row)),
          {
            key: 'delete',
            label: row.IsCurrent === 1 ? t('location.current_delete') : t('common.delete'),
            icon: <DeleteOutlined />,
            iconOnly: true,
            danger: true,
            disabled: row.IsCurrent === 1,
            ariaLabel: t('settings.delete_named', { name: row.SCName }),
            onClick: () =>
              confirm({
                title: t('settings.profile_delete_confirm', { name: row.SCName }),
                okText: t('common.delete'),
                danger: true,
                onOk: () => run(() => remove.mutateAsync(row.SC_ID)),
              }),
          },
        ],
      }),
      { fixed: false },
    ),
  ];

  return (
    <Card
      title={t('settings.gps_panel')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={enterpriseId === undefined}
          onClick={() => setTarget('create')}
        >
          {t('settings.profile_create')}
        </Button>
      }
      data-testid="location-profiles"
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('settings.gps_panel_hint')}
        </Typography.Paragraph>
        {enterpriseId !== undefined && <InForce enterpriseId={enterpriseId} />}
        {failure ? (
          <Alert
            type="error"
            showIcon
            title={errorMessage(failure)}
            action={
              <Button
                size="small"
                icon={<ReloadOutlined />}
                onClick={() => void (working.isError ? working.refetch() : profiles.refetch())}
              >
                {t('common.retry')}
              </Button>
            }
          />
        ) : (
          <Table<LocationProfileRow>
            rowKey="SC_ID"
            size="middle"
            columns={columns}
            dataSource={profiles.data ?? []}
            loading={working.isPending || (profiles.isPending && enterpriseId !== undefined)}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('settings.profiles_empty')} /> }}
          />
        )}
      </Flex>
      {enterpriseId !== undefined && (
        <LocationProfileDrawer target={target} enterpriseId={enterpriseId} onClose={() => setTarget(null)} />
      )}
    </Card>
  );
}
