import type { TerminalSocket } from '@intercom/terminal-client';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CallPanel } from './CallPanel';
import { PushToTalkButton } from './PushToTalkButton';
import { TalkCountersLine } from './TalkCountersLine';
import { TalkStatus } from './TalkStatus';
import { otherTalker, talkView } from './talkView';
import { useFieldTalk, useTalkState } from './useFieldTalk';
import { useTalkProblem } from './useTalkProblem';
import './talk.css';

export interface TalkScreenProps {
  socket: TerminalSocket;
  /** The current channel (the shell's header and switcher); null or undefined before one is chosen. */
  cid: number | null | undefined;
  channelName: string;
  me: { uid: number; name: string };
}

/**
 * Push-to-talk in the current channel (or the open call): who talks, the big button, the call that
 * rings. Audio heard plays as it arrives.
 */
export function TalkScreen({ socket, cid, channelName, me }: TalkScreenProps) {
  const { t } = useTranslation('talk');
  const talk = useFieldTalk(socket, cid ?? null);
  const state = useTalkState(talk);
  const problem = useTalkProblem();
  const press = useCallback(() => talk.press(), [talk]);
  const release = useCallback(() => talk.release(), [talk]);
  const view = talkView(state, me.uid);
  const other = otherTalker(state, me.uid);
  const callTalker = state.call ? (state.talkers[state.call.cid] ?? null) : null;
  const someoneTalks = view.kind === 'listening' || (view.kind === 'denied' && view.talker !== null);
  const tone = view.kind === 'talking' ? 'talking' : someoneTalks ? 'busy' : 'idle';
  return (
    <section className="talk" data-testid="talk-screen">
      {state.call && (
        <CallPanel
          call={state.call}
          talker={callTalker && callTalker.uid !== me.uid ? callTalker : null}
          onAnswer={() => talk.answer()}
          onEnd={() => talk.hangup()}
        />
      )}
      <TalkStatus view={view} channelName={channelName} inCall={state.call?.phase === 'active'} />
      {other && <p className="talk__other">{t('state.listeningElsewhere', { name: other.name })}</p>}
      <PushToTalkButton tone={tone} onPress={press} onRelease={release}>
        <span className="ptt__label">{view.kind === 'talking' ? t('release') : t('hold')}</span>
      </PushToTalkButton>
      {problem && <p className="talk__problem">{t(`problem.${problem}`)}</p>}
      <TalkCountersLine talk={talk} active={view.kind === 'talking' || someoneTalks || !!other} />
    </section>
  );
}
