import { TeamOutlined } from '@ant-design/icons';
import type { ChannelRow } from '@intercom/contract';
import { Button, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { channelTypeLabel } from './channelTypes';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { deleteRowAction, editRowAction, rowActionsColumn } from '../../shared/list/RowActions';

export interface ChannelRowActions {
  edit: (channel: ChannelRow) => void;
  members: (channel: ChannelRow) => void;
  remove: (channel: ChannelRow) => void;
  record: (channel: ChannelRow, record: boolean) => void;
}

/** Columns of the channel list; `key` is the API field a sortable column orders by. */
export function useChannelColumns(actions: ChannelRowActions, switching: ReadonlySet<number>): ColumnsType<ChannelRow> {
  const { t } = useTranslation();
  return useMemo<ColumnsType<ChannelRow>>(
    () => [
      { key: 'CName', dataIndex: 'CName', title: t('channels.name'), sorter: true, fixed: 'left' },
      {
        key: 'CTypeID',
        dataIndex: 'CTypeID',
        title: t('channels.type'),
        sorter: true,
        render: (value: number) => <Tag>{channelTypeLabel(t, value)}</Tag>,
      },
      { key: 'Priority', dataIndex: 'Priority', title: t('channels.priority'), sorter: true, align: 'right' },
      {
        key: 'VideoEnable',
        dataIndex: 'VideoEnable',
        title: t('channels.video'),
        sorter: true,
        render: (value: number) =>
          value ? (
            <Tag color="blue">{t('common.yes')}</Tag>
          ) : (
            <Typography.Text type="secondary">{t('common.no')}</Typography.Text>
          ),
      },
      {
        key: 'MemberCount',
        dataIndex: 'MemberCount',
        title: t('channels.member_count'),
        sorter: true,
        align: 'right',
        render: (value: number, channel) => (
          <Button
            type="link"
            size="small"
            onClick={() => actions.members(channel)}
            aria-label={t('channels.members_of', { name: channel.CName, count: value })}
          >
            {value}
          </Button>
        ),
      },
      {
        key: 'Record',
        dataIndex: 'Record',
        title: t('channels.record'),
        sorter: true,
        render: (value: number, channel) => (
          <Switch
            size="small"
            checked={value === 1}
            loading={switching.has(channel.CID)}
            onChange={(checked) => actions.record(channel, checked)}
            aria-label={t('channels.record_of', { name: channel.CName })}
          />
        ),
      },
      {
        key: 'Note',
        dataIndex: 'Note',
        title: t('channels.note'),
        ellipsis: true,
        render: (value: string) => value || <Typography.Text type="secondary">—</Typography.Text>,
      },
      dateTimeColumn('CreatedAt', t('users.created'), { sorter: true }),
      rowActionsColumn<ChannelRow>(t('common.actions'), (channel) => ({
        actions: [
          editRowAction(t('common.edit'), t('channels.edit_named', { name: channel.CName }), () =>
            actions.edit(channel),
          ),
          {
            key: 'members',
            label: t('channels.members'),
            icon: <TeamOutlined />,
            onClick: () => actions.members(channel),
          },
          deleteRowAction(t('common.delete'), t('channels.delete_named', { name: channel.CName }), () =>
            actions.remove(channel),
          ),
        ],
      })),
    ],
    [t, actions, switching],
  );
}
