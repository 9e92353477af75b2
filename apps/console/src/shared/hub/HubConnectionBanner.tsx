import { Alert } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useHubSnapshot } from './useHubSnapshot';

/** A blip shorter than this (a server restart that reconnects at once) shows no banner. */
export const BANNER_DELAY_MS = 1_000;

/** "Connection to server failed" while the hub cannot be reached; gone once it is back. */
export function HubConnectionBanner({ style }: { style?: CSSProperties }) {
  const { t } = useTranslation();
  const failing = useHubSnapshot((s) => s.status === 'reconnecting' || s.status === 'disconnected');
  const [delayPassed, setDelayPassed] = useState(false);
  useEffect(() => {
    if (!failing) return;
    const timer = setTimeout(() => setDelayPassed(true), BANNER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setDelayPassed(false);
    };
  }, [failing]);

  if (!failing || !delayPassed) return null;
  return (
    <Alert
      banner
      type="error"
      showIcon
      title={t('hub.connection_failed')}
      description={t('hub.retrying')}
      style={style}
      data-testid="hub-banner"
    />
  );
}
