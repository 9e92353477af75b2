import {
  AccountLimits,
  accountSaveSchema,
  Limits,
  MessageKeys,
  ROLES,
  type ConsoleAccountRow,
  type Role,
} from '@intercom/contract';
import { Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { ROLE_LABELS } from '../account';
import { useConsoleAccount, useSaveAccount } from './api';

interface AccountValues {
  LoginName: string;
  Name: string;
  Mail: string;
  Role: Role;
  Password: string;
  ConfirmPassword: string;
}

/** Create (login account, password) or edit (name, mail, role) one console account. */
export function AccountDrawer({ target, onClose }: { target: { id: number } | 'create' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = target && target !== 'create' ? target.id : undefined;
  const account = useConsoleAccount(editing);
  const save = useSaveAccount();
  const body = (values: AccountValues) => ({
    A_ID: editing ?? 0,
    LoginName: (values.LoginName ?? '').trim(),
    Name: values.Name ?? '',
    Mail: (values.Mail ?? '').trim(),
    Role: values.Role,
    ...(editing ? {} : { Password: values.Password ?? '' }),
  });
  return (
    <EditDrawer<AccountValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('accounts.edit') : t('accounts.create')}
      load={editing ? account : undefined}
      toFormValues={(row: ConsoleAccountRow) => ({ ...row, Role: row.Role as Role })}
      initialValues={{ LoginName: '', Name: '', Mail: '', Role: 'editor', Password: '', ConfirmPassword: '' }}
      validate={(values) => {
        const errors = contractErrors(accountSaveSchema, body(values));
        if (!editing && (values.Password ?? '') !== (values.ConfirmPassword ?? '')) {
          errors.push({ field: 'ConfirmPassword', key: MessageKeys.psdNotEqual });
        }
        return errors;
      }}
      save={(values) => save.mutateAsync(body(values))}
      messageFields={{ [MessageKeys.loginExists]: 'LoginName', [MessageKeys.lastAdmin]: 'Role' }}
      testId="account-drawer"
    >
      <Form.Item name="LoginName" label={t('accounts.login')} required>
        <Input maxLength={AccountLimits.loginMax} autoComplete="off" autoFocus={!editing} />
      </Form.Item>
      <Form.Item name="Name" label={t('accounts.name')}>
        <Input maxLength={AccountLimits.nameMax} />
      </Form.Item>
      <Form.Item name="Mail" label={t('accounts.mail')}>
        <Input maxLength={AccountLimits.mailMax} inputMode="email" autoComplete="off" />
      </Form.Item>
      <Form.Item name="Role" label={t('accounts.role')} extra={t('accounts.role_hint')}>
        <Radio.Group
          optionType="button"
          options={ROLES.map((role) => ({ value: role, label: t(ROLE_LABELS[role]) }))}
        />
      </Form.Item>
      {!editing && (
        <>
          <Form.Item name="Password" label={t('accounts.password')} required extra={t('password.rule_short')}>
            <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
          </Form.Item>
          <Form.Item name="ConfirmPassword" label={t('batch.password_confirm')} required>
            <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
          </Form.Item>
        </>
      )}
    </EditDrawer>
  );
}
