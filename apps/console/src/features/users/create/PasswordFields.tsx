import { Limits, MessageKeys } from '@intercom/contract';
import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordStrength } from './PasswordStrength';

/**
 * The password the new users get, how strong it is, and its confirmation. `required`: every user
 * gets this one, so both fields must be filled and the confirmation is checked as it is typed.
 */
export function PasswordFields({ label, hint, required }: { label: string; hint: string; required: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<{ Password?: string; ConfirmPassword?: string }>();
  const password = Form.useWatch('Password', form);
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item name="Password" label={label} required={required} extra={hint}>
          <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
        </Form.Item>
        <div style={{ marginTop: -12, marginBottom: 16 }}>
          <PasswordStrength password={password} />
        </div>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="ConfirmPassword"
          label={t('batch.password_confirm')}
          required={required}
          {...(required && {
            dependencies: ['Password'],
            rules: [
              {
                validator: (_rule: unknown, value: string | undefined) =>
                  (value ?? '') === (form.getFieldValue('Password') ?? '')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t(MessageKeys.psdNotEqual))),
              },
            ],
          })}
        >
          <Input.Password autoComplete="new-password" maxLength={Limits.passwordMax} />
        </Form.Item>
      </Col>
    </Row>
  );
}
