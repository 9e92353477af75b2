import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBanner } from '../shared/StatusBanner';
import { AlertOverlay } from './AlertOverlay';
import { ManDownMonitor } from './manDownDetector';

/** Seconds the worker has to answer "Are you OK?" before the alarm goes. */
export const MAN_DOWN_COUNTDOWN_S = 20;
const ENABLED_KEY = 'intercom.field.manDown';

type PermissionRequesting = typeof DeviceMotionEvent & { requestPermission?: () => Promise<'granted' | 'denied'> };

function readEnabled(): boolean {
  try {
    return localStorage.getItem(ENABLED_KEY) === '1';
  } catch {
    return false;
  }
}

function writeEnabled(on: boolean): void {
  try {
    localStorage.setItem(ENABLED_KEY, on ? '1' : '0');
  } catch {
    // The switch lasts this visit only.
  }
}

/** Listens to DeviceMotion while `enabled` and calls `onFall` for each fall the detector sees. */
function useFallDetection(enabled: boolean, onFall: () => void): void {
  useEffect(() => {
    if (!enabled) return undefined;
    const monitor = new ManDownMonitor();
    const listener = (event: DeviceMotionEvent) => {
      const a = event.accelerationIncludingGravity;
      if (a?.x == null || a.y == null || a.z == null) return;
      if (monitor.push({ t: event.timeStamp, x: a.x, y: a.y, z: a.z }) !== undefined) onFall();
    };
    window.addEventListener('devicemotion', listener);
    return () => window.removeEventListener('devicemotion', listener);
  }, [enabled, onFall]);
}

/** "Are you OK?" for MAN_DOWN_COUNTDOWN_S seconds; unanswered, `onAlarm`. */
function AreYouOk({ onCancel, onAlarm }: { onCancel: () => void; onAlarm: () => void }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(MAN_DOWN_COUNTDOWN_S);
  useEffect(() => {
    if (left <= 0) {
      onAlarm();
      return undefined;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, onAlarm]);
  return (
    <AlertOverlay tone="alarm" label={t('manDown.title')}>
      <h2>{t('manDown.title')}</h2>
      <div className="overlay__count" aria-live="polite">
        {left}
      </div>
      <p>{t('manDown.hint')}</p>
      <button type="button" className="secondary" onClick={onCancel}>
        {t('manDown.cancel')}
      </button>
    </AlertOverlay>
  );
}

type ManDownState = 'watching' | 'asking' | 'sending' | 'sent' | 'failed';

/** The opt-in man down switch, the fall detector behind it, and its countdown and alarm. */
export function ManDown({ onAlarm }: { onAlarm: () => Promise<void> }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(readEnabled);
  const [state, setState] = useState<ManDownState>('watching');
  const [onFall] = useState(() => () => setState((now) => (now === 'watching' ? 'asking' : now)));
  const [alarm] = useState(() => () => {
    setState('sending');
    onAlarm().then(
      () => setState('sent'),
      () => setState('failed'),
    );
  });
  useFallDetection(enabled, onFall);

  const apply = (on: boolean) => {
    writeEnabled(on);
    setEnabled(on);
  };
  /** The switch turns at once; iOS also asks for the motion sensors here (it wants a tap), else no samples come. */
  const toggle = (on: boolean) => {
    apply(on);
    const motion = (globalThis as { DeviceMotionEvent?: PermissionRequesting }).DeviceMotionEvent;
    if (on && motion?.requestPermission) void motion.requestPermission().catch(() => undefined);
  };

  return (
    <div className="manDown">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          aria-checked={enabled}
          onChange={(event) => toggle(event.target.checked)}
        />
        <span>{t('manDown.switch')}</span>
      </label>
      {state === 'asking' && <AreYouOk onCancel={() => setState('watching')} onAlarm={alarm} />}
      {(state === 'sending' || state === 'sent' || state === 'failed') && (
        <StatusBanner
          text={t(`manDown.${state}`)}
          failed={state === 'failed'}
          {...(state !== 'sending' ? { onDismiss: () => setState('watching') } : {})}
        />
      )}
    </div>
  );
}
