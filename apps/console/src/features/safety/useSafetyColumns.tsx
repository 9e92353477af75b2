import type { SafetySettingRow } from '@intercom/contract';
import { Tag, Typography } from 'antd';
import type { ColumnsType, ColumnType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { deleteRowAction, editRowAction, rowActionsColumn } from '../../shared/list/RowActions';

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
    // A timer of the setting: its minutes in words, or "off" at 0.
    const minutesColumn = (
      key: 'CheckInMinutes' | 'NoMovementMinutes',
      title: string,
      text: (minutes: number, row: SafetySettingRow) => string,
    ): ColumnType<SafetySettingRow> => ({
      key,
      dataIndex: key,
      title,
      sorter: true,
      render: (minutes: number, row) => (minutes > 0 ? text(minutes, row) : off),
    });
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
      minutesColumn('CheckInMinutes', t('safety.check_in'), (minutes, row) =>
        t('safety.check_in_of', { minutes, grace: row.GraceMinutes }),
      ),
      minutesColumn('NoMovementMinutes', t('safety.no_movement'), (minutes, row) =>
        t('safety.no_movement_of', { minutes, meters: row.NoMovementMeters }),
      ),
      dateTimeColumn('UpdatedAt', t('safety.updated'), { sorter: true }),
      rowActionsColumn<SafetySettingRow>(t('common.actions'), (row) => ({
        actions: [
          editRowAction(t('common.edit'), t('safety.edit_named', { name: nameOf(row) }), () => actions.edit(row)),
          deleteRowAction(t('common.delete'), t('safety.delete_named', { name: nameOf(row) }), () =>
            actions.remove(row),
          ),
        ],
      })),
    ];
  }, [t, actions]);
}
