import { ROLES, type ConsoleAccountRow, type Role } from '@intercom/contract';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/SessionContext';
import { useRunAction } from '../../shared/api/useRunAction';
import { SelectFilter, TextFilter } from '../../shared/list/FilterFields';
import { ListShell } from '../../shared/list/ListShell';
import { createAction } from '../../shared/list/ListToolbar';
import type { Condition } from '../../shared/list/listParams';
import { useConfirm } from '../../shared/ui/ConfirmContext';
import { ROLE_LABELS } from '../account';
import { accountResource, useDeleteAccount, useDisableAccount } from './api';
import { AccountDrawer } from './AccountDrawer';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { dateTimeColumn } from '../../shared/list/dateTimeColumn';
import { rowActionsColumn } from '../../shared/list/RowActions';

interface AccountFilterValues {
  LoginName?: string;
  Role?: Role;
}

const accountCondition = (values: AccountFilterValues): Condition => ({
  LoginName: values.LoginName?.trim() ? { like: values.LoginName.trim() } : undefined,
  Role: values.Role,
});

/** /Managent/Account (admin): console accounts; create, edit, disable, reset password. */
export default function AccountListPage() {
  const { t } = useTranslation();
  const { info } = useSession();
  const confirm = useConfirm();
  const run = useRunAction();
  const disable = useDisableAccount();
  const remove = useDeleteAccount();
  const [editing, setEditing] = useState<{ id: number } | 'create' | null>(null);
  const [resetting, setResetting] = useState<ConsoleAccountRow | null>(null);

  const columns = useMemo<ColumnsType<ConsoleAccountRow>>(() => {
    const toggle = (account: ConsoleAccountRow) => {
      const disabling = !account.Disabled;
      confirm({
        title: disabling
          ? t('accounts.disable_title', { name: account.LoginName })
          : t('accounts.enable_title', { name: account.LoginName }),
        content: disabling ? t('accounts.disable_content') : undefined,
        okText: disabling ? t('accounts.disable') : t('accounts.enable'),
        danger: disabling,
        onOk: () => run(() => disable.mutateAsync({ A_ID: account.A_ID, Disabled: disabling })),
      });
    };
    const askDelete = (account: ConsoleAccountRow) =>
      confirm({
        title: t('accounts.delete_title', { name: account.LoginName }),
        content: t('accounts.delete_content'),
        okText: t('common.delete'),
        danger: true,
        onOk: () => run(() => remove.mutateAsync(account.A_ID)),
      });
    return [
      {
        key: 'LoginName',
        dataIndex: 'LoginName',
        title: t('accounts.login'),
        sorter: true,
        render: (value: string, account) => (
          <span>
            {value}
            {account.A_ID === info.A_ID && (
              <Tag color="blue" style={{ marginInlineStart: 8 }}>
                {t('accounts.you')}
              </Tag>
            )}
          </span>
        ),
      },
      { key: 'Name', dataIndex: 'Name', title: t('accounts.name'), sorter: true },
      {
        key: 'Mail',
        dataIndex: 'Mail',
        title: t('accounts.mail'),
        sorter: true,
        render: (value: string) => value || <Typography.Text type="secondary">—</Typography.Text>,
      },
      {
        key: 'Role',
        dataIndex: 'Role',
        title: t('accounts.role'),
        sorter: true,
        render: (value: Role) => (
          <Tag color={value === 'admin' ? 'blue' : 'green'}>{t(ROLE_LABELS[value] ?? value)}</Tag>
        ),
      },
      {
        key: 'Disabled',
        dataIndex: 'Disabled',
        title: t('accounts.state'),
        sorter: true,
        render: (value: number) =>
          value ? <Tag color="red">{t('accounts.disabled')}</Tag> : <Tag color="green">{t('accounts.active')}</Tag>,
      },
      dateTimeColumn('CreatedAt', t('users.created'), { sorter: true }),
      rowActionsColumn<ConsoleAccountRow>(t('common.actions'), (account) => {
        const self = account.A_ID === info.A_ID;
        return {
          name: account.LoginName,
          actions: [
            { key: 'edit', label: t('common.edit'), onClick: () => setEditing({ id: account.A_ID }) },
            {
              key: 'toggle',
              label: account.Disabled ? t('accounts.enable') : t('accounts.disable'),
              danger: !account.Disabled,
              disabled: self,
              onClick: () => toggle(account),
            },
          ],
          more: [
            { key: 'reset', label: t('accounts.reset'), onClick: () => setResetting(account) },
            {
              key: 'delete',
              label: t('common.delete'),
              danger: true,
              disabled: self,
              onClick: () => askDelete(account),
            },
          ],
        };
      }),
    ];
  }, [t, info.A_ID, confirm, run, disable, remove]);

  return (
    <>
      <ListShell<ConsoleAccountRow, AccountFilterValues>
        title={t('route.accounts')}
        resource={accountResource}
        columns={columns}
        filters={
          <>
            <TextFilter name="LoginName" label={t('accounts.login')} />
            <SelectFilter
              name="Role"
              label={t('accounts.role')}
              placeholder={t('accounts.all_roles')}
              options={ROLES.map((role) => ({ value: role, label: t(ROLE_LABELS[role]) }))}
            />
          </>
        }
        toCondition={accountCondition}
        actions={[createAction(t('accounts.create'), () => setEditing('create'))]}
        testId="account-list"
      />
      <AccountDrawer target={editing} onClose={() => setEditing(null)} />
      <ResetPasswordDialog account={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
