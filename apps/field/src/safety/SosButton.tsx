import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBanner } from '../shared/StatusBanner';

/** How long the button is held before the SOS goes. */
export const SOS_HOLD_MS = 2000;

type SosState = 'idle' | 'counting' | 'sending' | 'sent' | 'failed';

/**
 * The emergency button: held SOS_HOLD_MS (pointer, or Enter/Space) it calls `onSos`; releasing it
 * or the countdown's Cancel before then sends nothing.
 */
export function SosButton({ onSos }: { onSos: () => Promise<void> }) {
  const { t } = useTranslation();
  const [state, setState] = useState<SosState>('idle');
  const [remaining, setRemaining] = useState(SOS_HOLD_MS / 1000);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const clear = () => {
    for (const timer of timers.current.splice(0)) clearTimeout(timer);
  };
  useEffect(() => clear, []);

  const start = () => {
    if (state === 'counting' || state === 'sending') return;
    clear();
    setState('counting');
    setRemaining(SOS_HOLD_MS / 1000);
    for (let s = 1; s < SOS_HOLD_MS / 1000; s += 1) {
      timers.current.push(setTimeout(() => setRemaining(SOS_HOLD_MS / 1000 - s), s * 1000));
    }
    timers.current.push(
      setTimeout(() => {
        setState('sending');
        onSos().then(
          () => setState('sent'),
          () => setState('failed'),
        );
      }, SOS_HOLD_MS),
    );
  };
  const cancel = () => {
    clear();
    setState((now) => (now === 'counting' ? 'idle' : now));
  };
  const onKey = (event: KeyboardEvent, down: boolean) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    if (down && !event.repeat) start();
    if (!down) cancel();
  };

  return (
    <>
      <button
        type="button"
        className="sosButton"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          start();
        }}
        onPointerUp={cancel}
        onPointerCancel={cancel}
        onKeyDown={(event) => onKey(event, true)}
        onKeyUp={(event) => onKey(event, false)}
        onContextMenu={(event) => event.preventDefault()}
      >
        {t('sos.button')}
      </button>
      {state === 'counting' && (
        <div
          className="overlay overlay--alarm overlay--passThrough"
          role="alertdialog"
          aria-label={t('sos.countdownTitle')}
        >
          <h2>{t('sos.countdownTitle')}</h2>
          <div className="overlay__count">{remaining}</div>
          <div className="sosProgress">
            <div />
          </div>
          <p>{t('sos.countdownHint')}</p>
          <button type="button" className="secondary" onClick={cancel}>
            {t('sos.cancel')}
          </button>
        </div>
      )}
      {(state === 'sending' || state === 'sent' || state === 'failed') && (
        <StatusBanner
          text={t(`sos.${state}`)}
          failed={state === 'failed'}
          {...(state !== 'sending' ? { onDismiss: () => setState('idle') } : {})}
        />
      )}
    </>
  );
}
