import { URGENT_ALARM_TYPES, type Notification } from '@intercom/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readPreference, writePreference } from '../../shared/storage/localPreference';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';

const PREFERENCE = 'mapSosAlerts';
/** SOS and ManDown: sound, banner and its emergency call alike. */
const URGENT: ReadonlySet<string> = new Set(URGENT_ALARM_TYPES);

/** A short two-tone alarm drawn by Web Audio: no sound file to ship or fetch. */
function playAlarm(): void {
  try {
    const audio = new AudioContext();
    const gain = audio.createGain();
    gain.gain.value = 0.15;
    gain.connect(audio.destination);
    [880, 660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + i * 0.25);
      tone.stop(audio.currentTime + i * 0.25 + 0.2);
    });
    window.setTimeout(() => void audio.close(), 1_000);
  } catch {
    // No audio in this browser: the banner still shows.
  }
}

/**
 * Unhandled SOS and ManDown alarms, newest first, and the dispatcher's choice to also hear them and get a
 * browser notification. Only an SOS that arrives while the page is open sounds; those already
 * open when it loads are listed without noise.
 */
export function useSosAlerts() {
  const { t } = useTranslation();
  const alarms = useHubSnapshot((snapshot) => snapshot.alarms);
  const status = useHubSnapshot((snapshot) => snapshot.status);
  const [enabled, setEnabled] = useState(() => readPreference(PREFERENCE) === 'on');
  const seen = useRef<Set<number> | null>(null);
  const sos = [...alarms.values()]
    .filter((alarm) => URGENT.has(alarm.NType) && alarm.U_ID !== null)
    .sort((a, b) => b.CreatedAt - a.CreatedAt);

  useEffect(() => {
    if (status !== 'connected') return;
    const fresh: Notification[] = [];
    if (seen.current) for (const alarm of sos) if (!seen.current.has(alarm.N_ID)) fresh.push(alarm);
    seen.current = new Set(sos.map((alarm) => alarm.N_ID));
    if (fresh.length === 0 || !enabled) return;
    playAlarm();
    if ('Notification' in window && Notification.permission === 'granted') {
      for (const alarm of fresh)
        new Notification(t('map.sos_title'), {
          body: t('map.sos_body', { phone: alarm.Phone }),
          tag: `sos-${alarm.N_ID}`,
        });
    }
    // `sos` is derived from `alarms`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [alarms, status, enabled, t]);

  const setAlerts = async (on: boolean) => {
    setEnabled(on);
    writePreference(PREFERENCE, on ? 'on' : 'off');
    if (on && 'Notification' in window && Notification.permission === 'default') await Notification.requestPermission();
  };
  return { sos, alertsOn: enabled, setAlerts };
}
