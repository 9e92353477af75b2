import { checkChangePassword, MessageKeys } from '@intercom/contract';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session/SessionContext';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { applyServerErrors } from '../../shared/form/applyServerErrors';
import { useChangePassword } from './api';
import { useToast } from '../../shared/ui/ToastContext';

/** Field names of SPEC.md section 3: LPsd (current), Psd (new), CPsd (confirmation). */
interface PasswordFields {
  LPsd: string;
  Psd: string;
  CPsd: string;
}

/**
 * Change password with the rules of SPEC.md section 5, checked by the contract's validator on
 * both sides. Success ends every session of the account, so it goes on to /login.
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const navigate = useNavigate();
  const { info } = useSession();
  const [form] = Form.useForm<PasswordFields>();
  const change = useChangePassword();
  const errorMessage = useErrorMessage();

  const rule = (field: keyof PasswordFields) => ({
    validator: async () => {
      const values = form.getFieldsValue(true) as Partial<PasswordFields>;
      const failure = checkChangePassword({
        oldPassword: values.LPsd ?? '',
        newPassword: values.Psd ?? '',
        confirmPassword: values.CPsd ?? '',
      }).find((error) => error.field === field);
      if (failure) throw new Error(t(failure.key));
    },
  });

  const submit = (values: PasswordFields) => {
    change.mutate(
      { oldPassword: values.LPsd, newPassword: values.Psd },
      {
        onSuccess: () => {
          message.success(t(MessageKeys.ok));
          form.resetFields();
          onClose();
          navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (!applyServerErrors(form, error, (key) => t(key))) {
            message.error({ content: errorMessage(error) || t(MessageKeys.failed), duration: 5 });
          }
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t('layout.change_password')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      forceRender
      destroyOnHidden={false}
    >
      <p style={{ margin: '0 0 16px', color: 'rgba(0, 0, 0, 0.55)' }}>{t('password.rule_hint')}</p>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ LPsd: '', Psd: '', CPsd: '' }}>
        {/* Which account the new password belongs to, for password managers (never shown). */}
        <input type="text" name="username" autoComplete="username" value={info.account} readOnly hidden />
        <Form.Item name="LPsd" label={t('password.current')} rules={[rule('LPsd')]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="Psd" label={t('password.new')} rules={[rule('Psd')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="CPsd" label={t('password.confirm')} dependencies={['Psd']} rules={[rule('CPsd')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
