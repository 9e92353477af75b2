import { Card, Descriptions, Select, Tag, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '../../shared/api/useErrorMessage';
import { useUserSearch } from '../../shared/pickers/pickerQueries';
import { useSafetyInForce } from './api';

/** "Settings in force": pick a user, see what applies to it and where it comes from. */
export function SafetyInForce() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [text, setText] = useState('');
  const [userId, setUserId] = useState<number | undefined>();
  const found = useUserSearch(useDeferredValue(text), undefined);
  const inForce = useSafetyInForce(userId);
  const settings = inForce.data;
  const minutes = (value: number) => (value > 0 ? t('safety.minutes_of', { minutes: value }) : t('safety.off'));
  return (
    <Card size="small" title={t('safety.in_force')} style={{ marginBottom: 16 }} data-testid="safety-in-force">
      <Select<number>
        value={userId}
        onChange={setUserId}
        allowClear
        onClear={() => setUserId(undefined)}
        showSearch={{ filterOption: false, onSearch: setText }}
        loading={found.isFetching}
        placeholder={t('safety.in_force_placeholder')}
        notFoundContent={found.isFetching ? t('common.loading') : t('list.no_match')}
        options={(found.data ?? []).map((u) => ({ value: u.UserID, label: `${u.UserName} · ${u.MobilePhone}` }))}
        style={{ width: '100%', maxWidth: 420 }}
        aria-label={t('safety.in_force_placeholder')}
        data-testid="safety-in-force-user"
      />
      {inForce.isError && <Typography.Paragraph type="danger">{errorMessage(inForce.error)}</Typography.Paragraph>}
      {settings && (
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} style={{ marginTop: 12 }}>
          <Descriptions.Item label={t('safety.source')}>
            <Tag data-testid="safety-source">{t(`safety.source_${settings.Source}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('safety.check_in')}>{minutes(settings.CheckInMinutes)}</Descriptions.Item>
          <Descriptions.Item label={t('safety.grace')}>
            {t('safety.minutes_of', { minutes: settings.GraceMinutes })}
          </Descriptions.Item>
          <Descriptions.Item label={t('safety.no_movement')}>{minutes(settings.NoMovementMinutes)}</Descriptions.Item>
          <Descriptions.Item label={t('safety.no_movement_meters')}>
            {t('safety.meters_of', { meters: settings.NoMovementMeters })}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
