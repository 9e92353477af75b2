import type { Notification } from '@intercom/contract';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** Offers to jump to the newest SOS; the bell of the top bar counts them all. */
export function SosBanner({ sos, onJump }: { sos: readonly Notification[]; onJump: (userId: number) => void }) {
  const { t } = useTranslation();
  const newest = sos[0];
  if (!newest || newest.U_ID === null) return null;
  const userId = newest.U_ID;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      data-testid="map-sos-banner"
      title={t('map.sos_banner', { count: sos.length, phone: newest.Phone })}
      action={
        <Button size="small" danger onClick={() => onJump(userId)}>
          {t('map.sos_jump')}
        </Button>
      }
    />
  );
}
