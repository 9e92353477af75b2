import { LOCATION_MODES, LocationLimits, MessageKeys, type LocationProfileRow } from '@intercom/contract';
import { Form, Input, InputNumber, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { tk } from '../../i18n/tk';
import { EditDrawer } from '../../shared/form/EditDrawer';
import { useSaveLocationProfile } from './api';
import {
  MODE_HINTS,
  MODE_LABELS,
  profileFormValues,
  profileValueText,
  validateProfile,
  type LocationProfileValues,
} from './locationProfile';

/** The two report steps a profile sets: a time and a distance, each a whole number within the contract's limits. */
const STEPS = [
  {
    name: 'interval',
    labelKey: tk('settings.interval'),
    unitKey: tk('settings.seconds'),
    min: LocationLimits.intervalMin,
    max: LocationLimits.intervalMax,
  },
  {
    name: 'distance',
    labelKey: tk('settings.distance'),
    unitKey: tk('settings.metres'),
    min: LocationLimits.distanceMin,
    max: LocationLimits.distanceMax,
  },
] as const;

export type ProfileTarget = LocationProfileRow | 'create' | null;

/** Create or edit one named location-report profile of the working enterprise. */
export function LocationProfileDrawer({
  target,
  enterpriseId,
  onClose,
}: {
  target: ProfileTarget;
  enterpriseId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveLocationProfile();
  const editing = target && target !== 'create' ? target : undefined;
  return (
    <EditDrawer<LocationProfileValues>
      open={target !== null}
      onClose={onClose}
      title={editing ? t('settings.profile_edit') : t('settings.profile_create')}
      initialValues={editing ? profileFormValues(editing.SCName, editing.SCValue) : profileFormValues('', '')}
      validate={validateProfile}
      save={(values) =>
        save.mutateAsync({
          ...(editing ? { scID: editing.SC_ID } : {}),
          eid: enterpriseId,
          scName: (values.scName ?? '').trim(),
          scValue: profileValueText(values),
        })
      }
      fieldNames={{ scValue: 'interval' }}
      messageFields={{ [MessageKeys.nameExists]: 'scName', [MessageKeys.locationTooMany]: 'scName' }}
      testId="profile-drawer"
    >
      <Form.Item name="scName" label={t('settings.profile_name')} required>
        <Input maxLength={LocationLimits.nameMax} autoFocus={!editing} />
      </Form.Item>
      <Form.Item name="mode" label={t('settings.mode')}>
        <Radio.Group>
          <Space orientation="vertical">
            {LOCATION_MODES.map((mode) => (
              <Radio key={mode} value={mode}>
                {t(MODE_LABELS[mode])}
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {t(MODE_HINTS[mode])}
                </Typography.Text>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      {STEPS.map(({ name, labelKey, unitKey, min, max }) => (
        <Form.Item key={name} name={name} label={t(labelKey)} required>
          <InputNumber min={min} max={max} precision={0} suffix={t(unitKey)} style={{ width: 200 }} />
        </Form.Item>
      ))}
    </EditDrawer>
  );
}
