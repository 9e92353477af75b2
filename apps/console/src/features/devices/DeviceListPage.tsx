import { ImportOutlined, LinkOutlined } from '@ant-design/icons';
import type { DeviceRow } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunAction } from '../../shared/api/useRunAction';
import { SelectFilter, TextFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction } from '../../shared/list/ListToolbar';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { orgChildrenQuery } from '../organ';
import { useUserTypes } from '../../shared/pickers/pickerQueries';
import { userTypeName } from '../../shared/pickers/UserTypeSelect';
import { deviceResource, useDeleteDevice, useRecoverDevice } from './api';
import { DeviceChannels } from './DeviceChannels';
import { DeviceDrawer, type DeviceTarget } from './DeviceDrawer';
import { IccidImportDialog } from './IccidImportDialog';
import { MapIccidDrawer, type MapMode } from './MapIccidDrawer';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';

interface DeviceFilterValues {
  Search?: string;
  Mapped?: 0 | 1;
}

const deviceCondition = (values: DeviceFilterValues): Condition => ({
  Search: values.Search?.trim() || undefined,
  Mapped: values.Mapped,
});

/** /Managent/Resource: the SIM inventory, its import, and putting SIM cards onto users. */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const run = useRunAction();
  const recover = useRecoverDevice();
  const remove = useDeleteDevice();
  const types = useUserTypes();
  const enterpriseId = useQuery(orgChildrenQuery(undefined)).data?.[0]?.eid;
  const [editing, setEditing] = useState<DeviceTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [mapping, setMapping] = useState<{ mode: MapMode; iccid?: string; eid?: number } | null>(null);

  const columns = useMemo<ColumnsType<DeviceRow>>(() => {
    const askRecover = (device: DeviceRow) =>
      confirm({
        title: t('devices.recover_title', { name: device.UserName ?? '', phone: device.MobilePhone ?? '' }),
        content: t('devices.recover_content'),
        okText: t('devices.recover'),
        danger: true,
        onOk: () => run(() => recover.mutateAsync(device.MobilePhone ?? '')),
      });
    const askDelete = (device: DeviceRow) =>
      confirm({
        title: t('devices.delete_title', { iccid: device.ICCID }),
        content: device.UserID ? t('devices.delete_mapped') : undefined,
        okText: t('common.delete'),
        danger: true,
        onOk: () => run(() => remove.mutateAsync(device.D_ID)),
      });
    return [
      {
        key: 'ICCID',
        dataIndex: 'ICCID',
        title: t('users.iccid'),
        sorter: true,
        fixed: 'left',
        render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
      },
      { key: 'DeviceCode', dataIndex: 'DeviceCode', title: t('devices.code'), sorter: true },
      { key: 'NickName', dataIndex: 'NickName', title: t('devices.nickname'), sorter: true },
      {
        key: 'UserName',
        dataIndex: 'UserName',
        title: t('devices.user'),
        sorter: true,
        render: (_value, device) =>
          device.UserID ? (
            <span>
              {device.UserName}
              <Typography.Text type="secondary" style={{ marginInlineStart: 6 }}>
                {device.MobilePhone}
              </Typography.Text>
            </span>
          ) : (
            <Tag>{t('devices.free')}</Tag>
          ),
      },
      {
        key: 'rids',
        title: t('devices.channels'),
        render: (_: unknown, device: DeviceRow) => <DeviceChannels device={device} />,
      },
      { key: 'Priority', dataIndex: 'Priority', title: t('users.priority'), sorter: true, align: 'right' },
      {
        key: 'OSName',
        dataIndex: 'OSName',
        title: t('users.department'),
        sorter: true,
        render: (value: string | null) => value ?? '—',
      },
      {
        key: 'UType',
        dataIndex: 'UType',
        title: t('users.type'),
        sorter: true,
        render: (value: number) => userTypeName(t, types.data, value),
      },
      { key: 'Remark', dataIndex: 'Remark', title: t('users.remark') },
      dateTimeColumn('CreatedAt', t('users.created'), { sorter: true }),
      rowActionsColumn<DeviceRow>(t('common.actions'), (device) => ({
        name: device.ICCID,
        actions: [
          { key: 'edit', label: t('common.edit'), onClick: () => setEditing({ mode: 'edit', id: device.D_ID }) },
          device.UserID
            ? { key: 'recover', label: t('devices.recover'), danger: true, onClick: () => askRecover(device) }
            : {
                key: 'map',
                label: t('devices.map'),
                onClick: () => setMapping({ mode: 'single', iccid: device.ICCID, eid: device.E_ID }),
              },
        ],
        more: [{ key: 'delete', label: t('common.delete'), danger: true, onClick: () => askDelete(device) }],
      })),
    ];
  }, [t, types.data, confirm, run, recover, remove]);

  return (
    <>
      <ListShell<DeviceRow, DeviceFilterValues>
        title={t('route.resources')}
        resource={deviceResource}
        columns={columns}
        filters={
          <>
            <TextFilter name="Search" label={t('devices.search')} placeholder={t('devices.search_placeholder')} wide />
            <SelectFilter
              name="Mapped"
              label={t('devices.mapping')}
              placeholder={t('devices.all')}
              options={[
                { value: 1, label: t('devices.mapped') },
                { value: 0, label: t('devices.free') },
              ]}
            />
          </>
        }
        toCondition={deviceCondition}
        actions={[
          createAction(
            t('devices.create'),
            () => enterpriseId !== undefined && setEditing({ mode: 'create', eid: enterpriseId }),
            enterpriseId === undefined,
          ),
          { key: 'import', label: t('devices.import'), icon: <ImportOutlined />, onClick: () => setImporting(true) },
          {
            key: 'map',
            label: t('devices.map_title'),
            icon: <LinkOutlined />,
            onClick: () => setMapping({ mode: 'fast' }),
          },
        ]}
        exportFormats={['csv', 'xlsx']}
        columnSettings={{
          storageKey: 'devices',
          defaultHidden: ['UType', 'Remark', 'CreatedAt'],
          locked: ['ICCID', 'actions'],
        }}
        testId="device-list"
      />
      <DeviceDrawer target={editing} onClose={() => setEditing(null)} />
      <IccidImportDialog open={importing} onClose={() => setImporting(false)} />
      <MapIccidDrawer
        open={mapping !== null}
        mode={mapping?.mode ?? 'fast'}
        iccid={mapping?.iccid}
        simEnterpriseId={mapping?.eid}
        enterpriseId={enterpriseId}
        onModeChange={(mode) => setMapping((current) => ({ ...current, mode }))}
        onClose={() => setMapping(null)}
      />
    </>
  );
}
