import { useTranslation } from 'react-i18next';
import type { CallState, Talker } from './talkTypes';

interface Props {
  call: CallState;
  /** Who talks in the call now (the dispatcher is uid 0), if anyone. */
  talker: Talker | null;
  onAnswer: () => void;
  onEnd: () => void;
}

/** A private call ringing (Answer, Decline) or open (End call); an emergency call is open from the start. */
export function CallPanel({ call, talker, onAnswer, onEnd }: Props) {
  const { t } = useTranslation('talk');
  const caller = call.name ?? t('call.dispatcher');
  const title = call.emergency
    ? t('call.emergency')
    : call.phase === 'ringing'
      ? t('call.incoming', { name: caller })
      : t('call.with', { name: caller });
  return (
    <section
      className={`talk__call${call.emergency ? ' talk__call--emergency' : ''}`}
      data-testid="talk-call"
      data-phase={call.phase}
      aria-label={title}
      role={call.phase === 'ringing' ? 'alertdialog' : 'region'}
    >
      <p className="talk__call-title">{title}</p>
      {talker && <p className="talk__call-talker">{t('call.talking', { name: talker.name })}</p>}
      <div className="talk__call-actions">
        {call.phase === 'ringing' && (
          <button type="button" className="talk__answer" onClick={onAnswer}>
            {t('call.answer')}
          </button>
        )}
        <button type="button" className="talk__end" onClick={onEnd}>
          {call.phase === 'ringing' ? t('call.decline') : t('call.end')}
        </button>
      </div>
    </section>
  );
}
