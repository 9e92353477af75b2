import { checkChangePassword } from '@intercom/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/SessionContext';
import { FormDialog } from '../../shared/form/FormDialog';
import { useChangePassword } from './api';

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
  const navigate = useNavigate();
  const { info } = useSession();
  const [form] = Form.useForm<PasswordFields>();
  const change = useChangePassword();

  const rule = (field: keyof PasswordFields) => ({
    validator: () => {
      const values = form.getFieldsValue(true) as Partial<PasswordFields>;
      const failure = checkChangePassword({
        oldPassword: values.LPsd ?? '',
        newPassword: values.Psd ?? '',
        confirmPassword: values.CPsd ?? '',
      }).find((error) => error.field === field);
      return failure ? Promise.reject(new Error(t(failure.key))) : Promise.resolve();
    },
  });

  return (
    <FormDialog<PasswordFields>
      open={open}
      title={t('layout.change_password')}
      okText={t('common.confirm')}
      form={form}
      keepMounted
      intro={<p style={{ margin: '0 0 16px', color: 'rgba(0, 0, 0, 0.55)' }}>{t('password.rule_hint')}</p>}
      initialValues={{ LPsd: '', Psd: '', CPsd: '' }}
      save={(values) => change.mutateAsync({ oldPassword: values.LPsd, newPassword: values.Psd })}
      onSaved={() => {
        onClose();
        void navigate('/login', { replace: true });
      }}
      onCancel={onClose}
    >
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
    </FormDialog>
  );
}
