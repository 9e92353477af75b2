import { DeleteOutlined, EditOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import type { ChannelMemberRow } from '@intercom/contract';
import { Button, Card, Form, Result, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { departmentColumn } from '../organ';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useRunAction } from '../../shared/api/useRunAction';
import { TextFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import type { ListAction } from '../../shared/list/ListToolbar';
import { useListSelection } from '../../shared/list/useListSelection';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { useIsMobile } from '../../shared/ui/useIsMobile';
import { DepartmentSelect } from '../../shared/pickers/DepartmentSelect';
import { memberResource, useChangeMembers, useChannel } from './api';
import { channelTypeLabel } from './channelTypes';
import { MemberPicker } from './MemberPicker';
import { MemberPriorityDialog, type PriorityTarget } from './MemberPriorityDialog';
import { deleteRowAction, rowActionsColumn } from '../../shared/list/RowActions';
import { LoadingSkeleton } from '../../shared/ui/LoadingSkeleton';

interface MemberFilterValues {
  search?: string;
  OS_ID?: number;
}

const memberCondition = (values: MemberFilterValues): Condition => ({
  search: values.search?.trim() || undefined,
  OS_ID: values.OS_ID,
});

/** The department filter: a department with its sub-departments, or the users without one. */
function DepartmentFilter(props: {
  enterpriseId: number;
  value?: number;
  onChange?: (id: number | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ minWidth: 200 }}>
      <DepartmentSelect
        {...props}
        topLevel
        allowClear
        topLabel={t('organ.no_department')}
        placeholder={t('channels.picker_all_departments')}
      />
    </div>
  );
}

/** The members of one channel: search, department, priority (one or several), add and remove. */
export function MemberList({ cid }: { cid: number }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const confirm = useConfirm();
  const run = useRunAction();
  const mobile = useIsMobile();
  const channel = useChannel(cid);
  const changeMembers = useChangeMembers();
  const selection = useListSelection<ChannelMemberRow>('UserID');
  const [priority, setPriority] = useState<PriorityTarget | null>(null);
  const [adding, setAdding] = useState(false);

  const clearSelection = selection.clear;

  const columns: ColumnsType<ChannelMemberRow> = [
    { key: 'UserName', dataIndex: 'UserName', title: t('users.name'), sorter: true, fixed: 'left' },
    { key: 'MobilePhone', dataIndex: 'MobilePhone', title: t('users.phone'), sorter: true },
    departmentColumn(t, { sorter: true }),
    {
      key: 'Priority',
      dataIndex: 'Priority',
      title: t('channels.member_priority'),
      sorter: true,
      render: (value: number | null, member) => (
        <Button
          size="small"
          icon={<EditOutlined />}
          iconPlacement="end"
          aria-label={t('channels.priority_of', { name: member.UserName, priority: value ?? 0 })}
          title={t('channels.change_priority')}
          onClick={() => setPriority({ cid, members: [member], priority: value })}
        >
          {value ?? 0}
        </Button>
      ),
    },
    {
      key: 'UserPriority',
      dataIndex: 'UserPriority',
      title: t('channels.user_priority'),
      align: 'right',
    },
    {
      key: 'IsLock',
      dataIndex: 'IsLock',
      title: t('users.state'),
      render: (value: number) =>
        value ? <Tag color="red">{t('users.state_locked')}</Tag> : <Tag color="green">{t('users.state_normal')}</Tag>,
    },
    rowActionsColumn<ChannelMemberRow>(t('common.actions'), (member) => ({
      actions: [
        deleteRowAction(t('channels.remove_member'), t('channels.remove_named', { name: member.UserName }), () =>
          askRemove([member]),
        ),
      ],
    })),
  ];

  function askRemove(members: { UserID: number; UserName: string }[]) {
    confirm({
      title:
        members.length === 1
          ? t('channels.remove_title_one', { name: members[0]?.UserName ?? '' })
          : t('channels.remove_title_many', { count: members.length }),
      content: t('channels.remove_content'),
      okText: t('channels.remove_member'),
      danger: true,
      onOk: async () => {
        const done = await run(() =>
          changeMembers.mutateAsync({ cid, action: 'remove', uids: members.map((m) => m.UserID) }),
        );
        if (done) clearSelection();
      },
    });
  }

  if (channel.isPending) {
    return (
      <Card>
        <LoadingSkeleton rows={6} />
      </Card>
    );
  }
  if (channel.isError || !channel.data) {
    return (
      <Card>
        <Result
          status="warning"
          title={t('channels.not_found')}
          subTitle={channel.error ? errorMessage(channel.error) : undefined}
        />
      </Card>
    );
  }
  const info = channel.data;
  const selectedMembers = selection.keys.map(
    (key) => selection.rows.find((row) => row.UserID === Number(key)) ?? { UserID: Number(key), UserName: '' },
  );

  const toolbar: ListAction[] = [
    {
      key: 'add',
      label: t('channels.add_members'),
      icon: <UsergroupAddOutlined />,
      primary: true,
      onClick: () => setAdding(true),
    },
    {
      key: 'priority',
      label: t('channels.set_priority'),
      icon: <EditOutlined />,
      selected: selection.keys.length,
      onClick: () => setPriority({ cid, members: selectedMembers, priority: null }),
    },
    {
      key: 'remove',
      label: t('channels.remove_selected'),
      icon: <DeleteOutlined />,
      danger: true,
      selected: selection.keys.length,
      onClick: () => askRemove(selectedMembers),
    },
  ];

  return (
    <>
      <ListShell<ChannelMemberRow, MemberFilterValues>
        title={t('channels.members_title', { name: info.CName })}
        extra={
          !mobile && (
            <Typography.Text type="secondary">
              {t('channels.members_summary', {
                type: channelTypeLabel(t, info.CTypeID),
                priority: info.Priority,
                count: info.MemberCount,
              })}
            </Typography.Text>
          )
        }
        resource={memberResource}
        columns={columns}
        filters={
          <>
            <TextFilter
              name="search"
              label={t('channels.member_search')}
              placeholder={t('channels.member_search_placeholder')}
            />
            <Form.Item name="OS_ID" label={t('users.department')}>
              <DepartmentFilter enterpriseId={info.E_ID} />
            </Form.Item>
          </>
        }
        toCondition={memberCondition}
        fixedCondition={{ cid }}
        actions={toolbar}
        selection={selection}
        columnSettings={{
          storageKey: 'channel-members',
          defaultHidden: ['UserPriority'],
          locked: ['UserName', 'actions'],
        }}
        testId="member-list"
      />
      <MemberPriorityDialog
        target={priority}
        onClose={(changed) => {
          // A batch change leaves the ticks; a change of one row keeps the others as they were.
          if (changed && priority && priority.members.length > 1) clearSelection();
          setPriority(null);
        }}
      />
      <MemberPicker
        open={adding}
        title={t('channels.add_members_to', { name: info.CName })}
        source={{ kind: 'channel', cid }}
        enterpriseId={info.E_ID}
        okText={t('channels.add_members')}
        onOk={async (users) => {
          const done = await run(
            () => changeMembers.mutateAsync({ cid, action: 'add', uids: users.map((u) => u.UserID) }),
            t('channels.members_added', { count: users.length }),
          );
          if (done) setAdding(false);
        }}
        onCancel={() => setAdding(false)}
      />
    </>
  );
}
