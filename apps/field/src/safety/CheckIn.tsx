import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TerminalSocket } from '@intercom/terminal-client';
import { StatusBanner } from '../shared/StatusBanner';
import { AlertOverlay } from './AlertOverlay';

/**
 * Lone worker: `checkInDue` shows a full-screen prompt with sound and vibration; `I'm OK` sends
 * `checkIn` and shows when the next one is due.
 */
export function CheckIn({
  socket,
  due,
  onAnswered,
}: {
  socket: TerminalSocket | undefined;
  due: boolean;
  onAnswered: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [nextDueAt, setNextDueAt] = useState<number | null | undefined>(undefined);

  const answer = () => {
    setBusy(true);
    setFailed(false);
    (socket ? socket.request({ type: 'checkIn' }) : Promise.reject(new Error('not connected'))).then(
      (ack) => {
        setBusy(false);
        onAnswered();
        setNextDueAt(typeof ack.nextDueAt === 'number' ? ack.nextDueAt : null);
      },
      () => {
        setBusy(false);
        setFailed(true);
      },
    );
  };

  const time = (at: number) => new Date(at).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });
  return (
    <>
      {due && (
        <AlertOverlay tone="prompt" label={t('checkIn.title')}>
          <h2>{t('checkIn.title')}</h2>
          <p>{t('checkIn.hint')}</p>
          {failed && <p role="alert">{t('checkIn.failed')}</p>}
          <button type="button" className="primary" disabled={busy} onClick={answer}>
            {t('checkIn.ok')}
          </button>
        </AlertOverlay>
      )}
      {!due && nextDueAt !== undefined && (
        <StatusBanner
          text={nextDueAt === null ? t('checkIn.doneNoNext') : t('checkIn.done', { time: time(nextDueAt) })}
          failed={false}
          onDismiss={() => setNextDueAt(undefined)}
        />
      )}
    </>
  );
}
