import { UserLimits } from '@intercom/contract';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { SwitchItem } from '../../shared/form/SwitchItem';
import type { GpsFormValues } from './gpsConfig';

/** The GPS parameter of a user: follow the enterprise's profile, or its own on/off and interval. */
export function GpsConfigFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<GpsFormValues>();
  const follow = Form.useWatch('gpsFollow', form) !== false;
  const enabled = Form.useWatch('gpsEnabled', form) !== false;
  return (
    <>
      <SwitchItem name="gpsFollow" label={t('users.gps_follow')} extra={t('users.gps_follow_hint')} />
      {!follow && (
        <>
          <SwitchItem name="gpsEnabled" label={t('users.gps_enabled')} />
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
