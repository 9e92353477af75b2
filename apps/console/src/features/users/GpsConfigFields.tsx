import { UserLimits } from '@intercom/contract';
import { Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GpsFormValues } from './gpsConfig';

/** The GPS parameter of a user: follow the enterprise's profile, or its own on/off and interval. */
export function GpsConfigFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<GpsFormValues>();
  const follow = Form.useWatch('gpsFollow', form) !== false;
  const enabled = Form.useWatch('gpsEnabled', form) !== false;
  return (
    <>
      <Form.Item
        name="gpsFollow"
        label={t('users.gps_follow')}
        valuePropName="checked"
        extra={t('users.gps_follow_hint')}
      >
        <Switch />
      </Form.Item>
      {!follow && (
        <>
          <Form.Item name="gpsEnabled" label={t('users.gps_enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          {enabled && (
            <Form.Item name="gpsInterval" label={t('users.gps_interval')}>
              <InputNumber
                min={1}
                max={UserLimits.gpsIntervalMax}
                precision={0}
                suffix={t('users.seconds')}
                style={{ width: 180 }}
              />
            </Form.Item>
          )}
        </>
      )}
    </>
  );
}
