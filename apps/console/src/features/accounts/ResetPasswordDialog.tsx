import { accountResetPasswordSchema, Limits, MessageKeys, type ConsoleAccountRow } from '@intercom/contract';
import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { applyServerErrors } from '../../shared/form/applyServerErrors';
import { contractErrors } from '../../shared/form/contractErrors';
import { useToast } from '../../shared/ui/ToastContext';
import { useResetAccountPassword } from './api';

interface ResetValues {
  Password: string;
  ConfirmPassword: string;
}

/** A new password for another account; its sessions end, it signs in with the new one. */
export function ResetPasswordDialog({ account, onClose }: { account: ConsoleAccountRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const reset = useResetAccountPassword();
  const [form] = Form.useForm<ResetValues>();

  const submit = async (values: ResetValues) => {
    if (!account) return;
    const body = { A_ID: account.A_ID, Password: values.Password ?? '' };
    const errors = contractErrors(accountResetPasswordSchema, body);
    if ((values.Password ?? '') !== (values.ConfirmPassword ?? '')) {
      errors.push({ field: 'ConfirmPassword', key: MessageKeys.psdNotEqual });
    }
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.field as keyof ResetValues, errors: [t(e.key)] })));
      return;
    }
    try {
      await reset.mutateAsync(body);
      message.success(t('accounts.reset_done', { name: account.LoginName }));
      onClose();
    } catch (error) {
      if (applyServerErrors(form, error, (key) => t(key))) return;
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      message.error({ content: errorMessage(error), duration: 5 });
    }
  };

  return (
    <Modal
      open={account !== null}
      title={t('accounts.reset_title', { name: account?.LoginName ?? '' })}
      okText={t('accounts.reset')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <div data-testid="reset-password-dialog">
        <Typography.Paragraph type="secondary">{t('accounts.reset_hint')}</Typography.Paragraph>
        <Form<ResetValues>
          form={form}
          layout="vertical"
          initialValues={{ Password: '', ConfirmPassword: '' }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item name="Password" label={t('password.new')} extra={t('password.rule_short')}>
            <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
          </Form.Item>
          <Form.Item name="ConfirmPassword" label={t('password.confirm')}>
            <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
