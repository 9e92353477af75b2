import { useTranslation } from 'react-i18next';
import { deniedReason } from './deniedReason';
import type { TalkView } from './talkTypes';
import { useElapsed } from './TalkTimer';

interface Props {
  view: TalkView;
  channelName: string;
  /** The button talks in an open call (not in the channel). */
  inCall: boolean;
}

/** The state line above the button: one sentence, read aloud by screen readers as it changes. */
export function TalkStatus({ view, channelName, inCall }: Props) {
  const { t } = useTranslation('talk');
  const elapsed = useElapsed(view.kind === 'talking' ? view.since : null);
  let text: string;
  switch (view.kind) {
    case 'idle':
      text = inCall
        ? t('state.idleCall')
        : channelName
          ? t('state.idle', { channel: channelName })
          : t('state.noChannel');
      break;
    case 'requesting':
      text = t('state.requesting');
      break;
    case 'talking':
      text = t('state.talking', { duration: elapsed });
      break;
    case 'listening':
      text = t('state.listening', { name: view.talker.name });
      break;
    case 'denied':
      text = t(`denied.${deniedReason(view.reason)}`, { name: view.talker?.name ?? '' });
      break;
    case 'revoked':
      text = t(`revoked.${view.reason}`);
      break;
  }
  return (
    <p
      className={`talk__status talk__status--${view.kind}`}
      data-testid="talk-status"
      data-state={view.kind}
      role="status"
    >
      {text}
    </p>
  );
}
