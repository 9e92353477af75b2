import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { SafetySettingRow } from '@intercom/contract';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';

export interface SafetyRowActions {
  edit: (row: SafetySettingRow) => void;
  remove: (row: SafetySettingRow) => void;
}

const KIND_COLOURS = { user: 'blue', department: 'purple', enterprise: 'gold' } as const;

/** Columns of the settings list; `key` is the API field a sortable column orders by. */
export function useSafetyColumns(actions: SafetyRowActions): ColumnsType<SafetySettingRow> {
  const { t } = useTranslation();
  return useMemo<ColumnsType<SafetySettingRow>>(() => {
    const off = <Typography.Text type="secondary">{t('safety.off')}</Typography.Text>;
    const nameOf = (row: SafetySettingRow) => row.Name || `#${row.TargetID}`;
    return [
      {
        key: 'TargetKind',
        dataIndex: 'TargetKind',
        title: t('safety.applies_to'),
        sorter: true,
        fixed: 'left',
        width: 200,
        ellipsis: true,
        render: (_value: string, row) => (
          <>
            <Tag color={KIND_COLOURS[row.TargetKind]}>{t(`safety.kind_${row.TargetKind}`)}</Tag>
            {nameOf(row)}
          </>
        ),
      },
      {
        key: 'CheckInMinutes',
        dataIndex: 'CheckInMinutes',
        title: t('safety.check_in'),
        sorter: true,
        render: (value: number, row) =>
          value > 0 ? t('safety.check_in_of', { minutes: value, grace: row.GraceMinutes }) : off,
      },
      {
        key: 'NoMovementMinutes',
        dataIndex: 'NoMovementMinutes',
        title: t('safety.no_movement'),
        sorter: true,
        render: (value: number, row) =>
          value > 0 ? t('safety.no_movement_of', { minutes: value, meters: row.NoMovementMeters }) : off,
      },
      dateTimeColumn('UpdatedAt', t('safety.updated'), { sorter: true }),
      rowActionsColumn<SafetySettingRow>(t('common.actions'), (row) => ({
        actions: [
          {
            key: 'edit',
            label: t('common.edit'),
            icon: <EditOutlined />,
            iconOnly: true,
            ariaLabel: t('safety.edit_named', { name: nameOf(row) }),
            onClick: () => actions.edit(row),
          },
          {
            key: 'delete',
            label: t('common.delete'),
            icon: <DeleteOutlined />,
            iconOnly: true,
            danger: true,
            ariaLabel: t('safety.delete_named', { name: nameOf(row) }),
            onClick: () => actions.remove(row),
          },
        ],
      })),
    ];
  }, [t, actions]);
}
