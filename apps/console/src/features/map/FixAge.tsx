import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { relativeTime } from './relativeTime';

/** Fixes come every few seconds: the age moves on each second, so it never lags them. */
const TICK_MS = 1_000;

/** How long ago a fix was taken ("12 sec. ago"), moving on by itself while shown; its time as a tooltip. */
export function FixAge({ time }: { time: number }) {
  const { i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <span title={new Date(time).toLocaleString(i18n.language)} data-testid="map-card-fix-age">
      {relativeTime(time, now, i18n.language)}
    </span>
  );
}
