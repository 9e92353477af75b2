import { accountResetPasswordSchema, Limits, MessageKeys, type ConsoleAccountRow } from '@intercom/contract';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { FormDialog } from '../../shared/form/FormDialog';
import { useResetAccountPassword } from './api';

interface ResetValues {
  Password: string;
  ConfirmPassword: string;
}

/** A new password for another account; its sessions end, it signs in with the new one. */
export function ResetPasswordDialog({ account, onClose }: { account: ConsoleAccountRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const reset = useResetAccountPassword();
  const bodyOf = (values: ResetValues) => ({ A_ID: account?.A_ID, Password: values.Password ?? '' });

  return (
    <FormDialog<ResetValues>
      open={account !== null}
      title={t('accounts.reset_title', { name: account?.LoginName ?? '' })}
      okText={t('accounts.reset')}
      testId="reset-password-dialog"
      intro={<Typography.Paragraph type="secondary">{t('accounts.reset_hint')}</Typography.Paragraph>}
      initialValues={{ Password: '', ConfirmPassword: '' }}
      validate={(values) => {
        const errors = contractErrors(accountResetPasswordSchema, bodyOf(values));
        if ((values.Password ?? '') !== (values.ConfirmPassword ?? '')) {
          errors.push({ field: 'ConfirmPassword', key: MessageKeys.psdNotEqual });
        }
        return errors;
      }}
      save={async (values) => {
        if (account) await reset.mutateAsync({ A_ID: account.A_ID, Password: values.Password ?? '' });
      }}
      successText={() => t('accounts.reset_done', { name: account?.LoginName ?? '' })}
      onSaved={onClose}
      onCancel={onClose}
    >
      <Form.Item name="Password" label={t('password.new')} extra={t('password.rule_short')}>
        <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
      </Form.Item>
      <Form.Item name="ConfirmPassword" label={t('password.confirm')}>
        <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
      </Form.Item>
    </FormDialog>
  );
}
