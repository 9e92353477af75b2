import { useTranslation } from 'react-i18next';
import { useStore } from '../shared/useStore';
import type { LocationReporter } from './locationReporter';

/** "12 s", "3 min", "2 h": the age of the last fix, coarse enough for a display refreshed at the report interval. */
function ageKey(ms: number): { key: string; value: number } {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return { key: 'gps.ageSeconds', value: s };
  if (s < 90 * 60) return { key: 'gps.ageMinutes', value: Math.round(s / 60) };
  return { key: 'gps.ageHours', value: Math.round(s / 3600) };
}

/** GPS state, the age of the last fix, and how many fixes wait for the network. */
export function GpsStatus({ reporter }: { reporter: LocationReporter }) {
  const { t } = useTranslation();
  const { gps, lastFix, queued, now } = useStore(reporter);
  const age = lastFix ? ageKey(now - lastFix.time) : undefined;
  return (
    <section className={gps === 'ok' ? 'gpsStatus' : 'gpsStatus gpsStatus--bad'} aria-label={t('gps.label')}>
      <span>{t(`gps.state.${gps}`)}</span>
      {age && <span>{t('gps.lastFix', { age: t(age.key, { count: age.value }) })}</span>}
      {queued > 0 && <span>{t('gps.queued', { count: queued })}</span>}
    </section>
  );
}
