import type { TerminalSocket } from '@intercom/terminal-client';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { FieldTalk, type TalkSocket } from './FieldTalk';
import type { TalkState } from './talkTypes';

/** One FieldTalk per socket (the session's), running while the screen is shown, in the shell's current channel. */
export function useFieldTalk(socket: TerminalSocket | TalkSocket, cid: number | null): FieldTalk {
  const talk = useMemo(() => new FieldTalk({ socket }), [socket]);
  useEffect(() => talk.start(), [talk]);
  useEffect(() => talk.setChannel(cid), [talk, cid]);
  return talk;
}

/** The engine's state, re-rendered on each change. */
export function useTalkState(talk: FieldTalk): TalkState {
  return useSyncExternalStore(
    (listener) => talk.subscribe(listener),
    () => talk.snapshot,
  );
}
