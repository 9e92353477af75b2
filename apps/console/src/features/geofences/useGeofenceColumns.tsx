import { GeofenceKinds, type GeofenceRow } from '@intercom/contract';
import { Flex, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { deleteRowAction, editRowAction, rowActionsColumn } from '../../shared/list/RowActions';

export interface GeofenceRowActions {
  edit: (fence: GeofenceRow) => void;
  remove: (fence: GeofenceRow) => void;
}

/** Columns of the fence list; `key` is the API field a sortable column orders by. */
export function useGeofenceColumns(actions: GeofenceRowActions): ColumnsType<GeofenceRow> {
  const { t } = useTranslation();
  return useMemo<ColumnsType<GeofenceRow>>(
    () => [
      {
        key: 'Name',
        dataIndex: 'Name',
        title: t('geofence.name'),
        sorter: true,
        fixed: 'left',
        ellipsis: true,
        width: 180,
      },
      {
        key: 'Kind',
        dataIndex: 'Kind',
        title: t('geofence.kind'),
        sorter: true,
        render: (value: string, fence) =>
          value === GeofenceKinds.circle ? (
            <Tag color="geekblue">{t('geofence.circle_of', { radius: fence.Radius ?? 0 })}</Tag>
          ) : (
            <Tag color="purple">{t('geofence.polygon_of', { count: fence.Points?.length ?? 0 })}</Tag>
          ),
      },
      {
        key: 'alarms',
        title: t('geofence.alarms'),
        render: (_value: unknown, fence) => {
          const tags = [
            fence.Enter && <Tag key="enter">{t('geofence.enter')}</Tag>,
            fence.Exit && <Tag key="exit">{t('geofence.exit')}</Tag>,
            fence.DwellMinutes > 0 && <Tag key="dwell">{t('geofence.dwell_of', { minutes: fence.DwellMinutes })}</Tag>,
          ].filter(Boolean);
          return tags.length > 0 ? (
            <Flex gap={4} wrap>
              {tags}
            </Flex>
          ) : (
            <Typography.Text type="secondary">{t('geofence.no_alarms')}</Typography.Text>
          );
        },
      },
      {
        key: 'targets',
        title: t('geofence.applies_to'),
        render: (_value: unknown, fence) =>
          fence.UserIds.length === 0 && fence.DepartmentIds.length === 0 ? (
            <Typography.Text type="secondary">{t('geofence.whole_enterprise')}</Typography.Text>
          ) : (
            t('geofence.targets_of', { users: fence.UserIds.length, departments: fence.DepartmentIds.length })
          ),
      },
      dateTimeColumn('UpdatedAt', t('geofence.updated'), { sorter: true }),
      rowActionsColumn<GeofenceRow>(t('common.actions'), (fence) => ({
        actions: [
          editRowAction(t('common.edit'), t('geofence.edit_named', { name: fence.Name }), () => actions.edit(fence)),
          deleteRowAction(t('common.delete'), t('geofence.delete_named', { name: fence.Name }), () =>
            actions.remove(fence),
          ),
        ],
      })),
    ],
    [t, actions],
  );
}
