import { CheckCircleOutlined, EyeOutlined } from '@ant-design/icons';
import type { NotifyRow, NotifyState } from '@intercom/contract';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListShell } from '../../shared/list/ListShell';
import { useListSelection } from '../../shared/list/useListSelection';
import { notifyResource, type NotifyStep } from './api';
import { NotifyActionDialog, type NotifyAction } from './NotifyActionDialog';
import { NotifyFilters, notifyCondition, type NotifyFilterValues } from './NotifyFilters';
import { HandlingText } from './HandlingText';
import { canTake, detailText, STATE_COLORS, stateLabel, TYPE_COLORS, typeLabel } from './notifyText';
import { useLiveAlarmRefresh } from './useLiveAlarmRefresh';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';

const none = <Typography.Text type="secondary">—</Typography.Text>;

/** /System/notify (every role): alarms with who handled them; acknowledge and resolve, one or many. */
export default function AlarmRecordsPage() {
  const { t, i18n } = useTranslation();
  const [action, setAction] = useState<NotifyAction | null>(null);
  const selection = useListSelection<NotifyRow>('N_ID');
  const selected = selection.rows;
  useLiveAlarmRefresh();

  const columns = useMemo<ColumnsType<NotifyRow>>(
    () => [
      dateTimeColumn('CreatedAt', t('alarms.time'), { precision: 'second', sorter: true, width: 170 }),
      {
        key: 'NType',
        dataIndex: 'NType',
        title: t('alarms.type'),
        sorter: true,
        width: 120,
        render: (value: string, row) => (
          <Flex gap={4} wrap>
            <Tag color={TYPE_COLORS[value] ?? 'purple'}>{typeLabel(i18n, value)}</Tag>
            {row.Escalated === 1 && (
              <Tooltip title={t('alarms.escalated_hint')}>
                <Tag color="volcano" data-testid="alarm-escalated">
                  {t('alarms.escalated')}
                </Tag>
              </Tooltip>
            )}
          </Flex>
        ),
      },
      {
        key: 'State',
        dataIndex: 'State',
        title: t('alarms.state'),
        sorter: true,
        width: 120,
        render: (value: string) => (
          <Tag color={STATE_COLORS[value as NotifyState] ?? 'default'}>{stateLabel(i18n, value)}</Tag>
        ),
      },
      {
        key: 'UserName',
        dataIndex: 'UserName',
        title: t('alarms.user'),
        sorter: true,
        render: (value: string | null, row) => (
          <Flex vertical>
            <span>{value ?? none}</span>
            <Typography.Text type="secondary">{row.Phone}</Typography.Text>
          </Flex>
        ),
      },
      {
        key: 'Content',
        dataIndex: 'Content',
        title: t('alarms.content'),
        width: 200,
        render: (_value: string, row) => {
          const text = detailText(i18n, row);
          return text ? (
            <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: 184 }}>
              {text}
            </Typography.Text>
          ) : (
            none
          );
        },
      },
      {
        key: 'position',
        title: t('alarms.position'),
        width: 170,
        render: (_value, row) =>
          row.Latitude !== null && row.Longitude !== null ? (
            <Typography.Text copyable={{ text: `${row.Latitude},${row.Longitude}` }}>
              {`${row.Latitude.toFixed(5)}, ${row.Longitude.toFixed(5)}`}
            </Typography.Text>
          ) : (
            none
          ),
      },
      {
        key: 'handling',
        width: 290,
        title: t('alarms.handling'),
        render: (_value, row) => <HandlingText alarm={row} />,
      },
      rowActionsColumn<NotifyRow>(
        t('common.actions'),
        (row) => ({
          actions: (['acknowledge', 'resolve'] as const).map((step) => ({
            key: step,
            label: t(`alarms.${step}`),
            disabled: !canTake(step, row),
            onClick: () => setAction({ step, alarms: [row] }),
          })),
        }),
        { width: 170 },
      ),
    ],
    [t, i18n],
  );

  const takeSelected = (step: NotifyStep) => setAction({ step, alarms: selected.filter((row) => canTake(step, row)) });
  const ackCount = selected.filter((row) => canTake('acknowledge', row)).length;
  const resolveCount = selected.filter((row) => canTake('resolve', row)).length;
  const toolbar = [
    {
      key: 'acknowledge',
      label: t('alarms.acknowledge_selected'),
      icon: <EyeOutlined />,
      selected: ackCount,
      onClick: () => takeSelected('acknowledge'),
    },
    {
      key: 'resolve',
      label: t('alarms.resolve_selected'),
      icon: <CheckCircleOutlined />,
      selected: resolveCount,
      onClick: () => takeSelected('resolve'),
    },
  ];

  return (
    <>
      <ListShell<NotifyRow, NotifyFilterValues>
        title={t('route.notify')}
        resource={notifyResource}
        columns={columns}
        filters={<NotifyFilters />}
        toCondition={notifyCondition}
        actions={toolbar}
        exportFormats={['csv', 'xlsx']}
        selection={selection}
        columnSettings={{ storageKey: 'alarms', defaultHidden: [], locked: ['actions'] }}
        testId="alarm-list"
      />
      <NotifyActionDialog
        action={action}
        onClose={(changed) => {
          setAction(null);
          if (changed) selection.clear();
        }}
      />
    </>
  );
}
