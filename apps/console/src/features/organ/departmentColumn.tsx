import { Typography } from 'antd';
import type { ColumnType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';

/** A table column of the row's department name (`OSName`); a user outside every department says so. */
export function departmentColumn<Row extends { OSName: string | null }>(
  t: TFunction,
  column: Omit<ColumnType<Row>, 'key' | 'dataIndex' | 'title' | 'render'> = {},
): ColumnType<Row> {
  return {
    key: 'OSName',
    dataIndex: 'OSName',
    title: t('users.department'),
    ...column,
    render: (value: string | null) =>
      value ?? <Typography.Text type="secondary">{t('organ.no_department')}</Typography.Text>,
  };
}
