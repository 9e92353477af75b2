import { hasCap, USER_CAP_NAMES, type UserRow } from '@intercom/contract';
import { Flex, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { departmentColumn } from '../organ';
import { gpsSummary } from './gpsConfig';
import { CAP_LABELS } from './UserCapsDialog';
import { useUserTypes } from '../../shared/pickers/pickerQueries';
import { userTypeName } from '../../shared/pickers/UserTypeSelect';
import { USER_STATE_COLORS, USER_STATE_LABELS, userState } from './userState';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';
import { CallButton } from '../../talk';

export interface UserRowActions {
  edit: (user: UserRow) => void;
  freeze: (user: UserRow) => void;
  caps: (user: UserRow) => void;
  location: (user: UserRow) => void;
  channels: (user: UserRow) => void;
}

/** Columns of the user list; `key` is the API field a sortable column orders by. */
export function useUserColumns(actions: UserRowActions): ColumnsType<UserRow> {
  const { t } = useTranslation();
  const types = useUserTypes();
  return useMemo<ColumnsType<UserRow>>(
    () => [
      {
        key: 'UserName',
        dataIndex: 'UserName',
        title: t('users.name'),
        sorter: true,
        fixed: 'left',
        // A private call from the list, once a talk seat is logged in (the button hides otherwise).
        render: (name: string, user) => (
          <Space size={4}>
            {name}
            <CallButton kind="private" uid={user.UserID} name={name} />
          </Space>
        ),
      },
      { key: 'MobilePhone', dataIndex: 'MobilePhone', title: t('users.phone'), sorter: true },
      {
        key: 'ICCID',
        dataIndex: 'ICCID',
        title: t('users.iccid'),
        sorter: true,
        render: (value: string | null) =>
          value ? (
            <Typography.Text code>{value}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">—</Typography.Text>
          ),
      },
      departmentColumn(t, { sorter: true }),
      {
        key: 'UType',
        dataIndex: 'UType',
        title: t('users.type'),
        sorter: true,
        render: (value: number) => userTypeName(t, types.data, value),
      },
      { key: 'PriorityLevel', dataIndex: 'PriorityLevel', title: t('users.priority'), sorter: true, align: 'right' },
      {
        key: 'IsLock',
        title: t('users.state'),
        sorter: true,
        render: (_value, user) => {
          const state = userState(user);
          return <Tag color={USER_STATE_COLORS[state]}>{t(USER_STATE_LABELS[state])}</Tag>;
        },
      },
      dateTimeColumn('ExpireAt', t('users.expire'), { precision: 'day', sorter: true, empty: t('users.never') }),
      {
        key: 'Caps',
        dataIndex: 'Caps',
        title: t('users.caps'),
        render: (caps: number) => (
          <Flex gap={4} wrap>
            {USER_CAP_NAMES.filter((name) => hasCap(caps, name)).map((name) => (
              <Tag key={name} style={{ marginInlineEnd: 0 }}>
                {t(CAP_LABELS[name].title)}
              </Tag>
            ))}
          </Flex>
        ),
      },
      {
        key: 'GPSConfig',
        dataIndex: 'GPSConfig',
        title: t('users.gps'),
        render: (value: string) => {
          const summary = gpsSummary(value);
          return t(summary.key, summary.params ?? {});
        },
      },
      { key: 'Remark', dataIndex: 'Remark', title: t('users.remark') },
      dateTimeColumn('CreatedAt', t('users.created'), { sorter: true }),
      rowActionsColumn<UserRow>(t('common.actions'), (user) => ({
        name: user.UserName,
        actions: [
          { key: 'edit', label: t('common.edit'), onClick: () => actions.edit(user) },
          {
            key: 'freeze',
            label: user.IsLock ? t('users.unfreeze') : t('users.freeze'),
            tooltip: user.IsLock ? t('users.unfreeze_hint') : t('users.freeze_hint'),
            danger: !user.IsLock,
            onClick: () => actions.freeze(user),
          },
          { key: 'channels', label: t('channels.user_channels'), onClick: () => actions.channels(user) },
        ],
        more: [
          { key: 'caps', label: t('users.caps'), onClick: () => actions.caps(user) },
          { key: 'location', label: t('users.gps'), onClick: () => actions.location(user) },
        ],
      })),
    ],
    [t, types.data, actions],
  );
}
