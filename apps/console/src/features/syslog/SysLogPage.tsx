import type { SysLogRow } from '@intercom/contract';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListShell } from '../../shared/list/ListShell';
import { sysLogResource } from './api';
import { SysLogFilters, sysLogCondition, type SysLogFilterValues } from './SysLogFilters';
import { actionLabel, summaryText } from './sysLogText';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';

const ACTION_COLORS: Record<string, string> = {
  login: 'green',
  login_failed: 'red',
  logout: 'default',
  change_password: 'orange',
  modify_config: 'blue',
};

/** /System/syslog: who did what, when, from where; filter, sort, page and export. */
export default function SysLogPage() {
  const { t, i18n } = useTranslation();
  const columns = useMemo<ColumnsType<SysLogRow>>(
    () => [
      dateTimeColumn('CreatedAt', t('syslog.time'), { precision: 'second', sorter: true, width: 180 }),
      { key: 'Operator', dataIndex: 'Operator', title: t('syslog.operator'), sorter: true, width: 130 },
      {
        key: 'Action',
        dataIndex: 'Action',
        title: t('syslog.action_label'),
        sorter: true,
        width: 140,
        render: (value: string) => <Tag color={ACTION_COLORS[value] ?? 'purple'}>{actionLabel(i18n, value)}</Tag>,
      },
      { key: 'Target', dataIndex: 'Target', title: t('syslog.target'), width: 140 },
      {
        key: 'Summary',
        dataIndex: 'Summary',
        title: t('syslog.summary'),
        // A fixed width with an ellipsis (the whole text in a tooltip) keeps the IP column on
        // screen at 1280 px; the table still scrolls sideways when narrower.
        width: 250,
        render: (value: string) => {
          const text = summaryText(i18n, value);
          return (
            <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: 234 }}>
              {text}
            </Typography.Text>
          );
        },
      },
      { key: 'IP', dataIndex: 'IP', title: t('syslog.ip'), sorter: true, width: 140 },
    ],
    [t, i18n],
  );

  return (
    <ListShell<SysLogRow, SysLogFilterValues>
      title={t('route.syslog')}
      resource={sysLogResource}
      columns={columns}
      filters={<SysLogFilters />}
      toCondition={sysLogCondition}
      exportFormats={['csv', 'xlsx']}
    />
  );
}
