import { MessageKeys, userLocationConfigSchema, type UserRow } from '@intercom/contract';
import { Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../shared/api/ApiError';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { applyServerErrors } from '../../shared/form/applyServerErrors';
import { contractErrors } from '../../shared/form/contractErrors';
import { useToast } from '../../shared/ui/ToastContext';
import { useSaveUserLocation } from './api';
import { GpsConfigFields } from './GpsConfigFields';
import { gpsConfigText, gpsFormValues, type GpsFormValues } from './gpsConfig';

/** The GPS parameter of one user (`SaveLocationConfig`): follow the enterprise, or its own. */
export function UserLocationDialog({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const errorMessage = useErrorMessage();
  const save = useSaveUserLocation();
  const [form] = Form.useForm<GpsFormValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: GpsFormValues) => {
    if (!user) return;
    const body = { uid: user.UserID, phoneNumber: user.MobilePhone, scValue: gpsConfigText(values) };
    const failure = contractErrors(userLocationConfigSchema, body)[0];
    if (failure) {
      form.setFields([{ name: 'gpsInterval', errors: [t(failure.key)] }]);
      return;
    }
    setSaving(true);
    try {
      await save.mutateAsync(body);
      message.success(t(MessageKeys.ok));
      onClose();
    } catch (error) {
      if (applyServerErrors(form, error, (key) => t(key), { scValue: 'gpsInterval' })) return;
      if (isApiError(error) && (error.connectionFailed || error.sessionEnded)) return;
      message.error({ content: errorMessage(error), duration: 5 });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={user !== null}
      title={t('users.location_title', { name: user?.UserName ?? '' })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <div data-testid="user-location-dialog">
        <Typography.Paragraph type="secondary">{t('users.location_hint')}</Typography.Paragraph>
        <Form<GpsFormValues>
          form={form}
          layout="vertical"
          initialValues={gpsFormValues(user?.GPSConfig ?? '')}
          onFinish={(values) => void submit(values)}
          disabled={saving}
        >
          <GpsConfigFields />
        </Form>
      </div>
    </Modal>
  );
}
