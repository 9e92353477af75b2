import { userLocationConfigSchema, type UserRow } from '@intercom/contract';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractErrors } from '../../shared/form/contractErrors';
import { FormDialog } from '../../shared/form/FormDialog';
import { useSaveUserLocation } from './api';
import { GpsConfigFields } from './GpsConfigFields';
import { gpsConfigText, gpsFormValues, type GpsFormValues } from './gpsConfig';

/** The GPS parameter of one user (`SaveLocationConfig`): follow the enterprise, or its own. */
export function UserLocationDialog({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveUserLocation();
  const bodyOf = (row: UserRow, values: GpsFormValues) => ({
    uid: row.UserID,
    phoneNumber: row.MobilePhone,
    scValue: gpsConfigText(values),
  });

  return (
    <FormDialog<GpsFormValues>
      open={user !== null}
      title={t('users.location_title', { name: user?.UserName ?? '' })}
      testId="user-location-dialog"
      intro={<Typography.Paragraph type="secondary">{t('users.location_hint')}</Typography.Paragraph>}
      initialValues={gpsFormValues(user?.GPSConfig ?? '')}
      validate={(values) => {
        if (!user) return undefined;
        const failure = contractErrors(userLocationConfigSchema, bodyOf(user, values))[0];
        return failure && [{ field: 'gpsInterval', key: failure.key }];
      }}
      save={async (values) => {
        if (user) await save.mutateAsync(bodyOf(user, values));
      }}
      fieldNames={{ scValue: 'gpsInterval' }}
      onSaved={onClose}
      onCancel={onClose}
    >
      <GpsConfigFields />
    </FormDialog>
  );
}
