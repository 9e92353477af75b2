import { createContext, useContext, useSyncExternalStore } from 'react';
import type { FieldSession, SessionState } from '../session/fieldSession';

export const SessionContext = createContext<FieldSession | undefined>(undefined);

/** The app's one FieldSession (App provides it). */
export function useFieldSession(): FieldSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useFieldSession outside <App>');
  return session;
}

/** The session's state, re-rendering on each change. */
export function useSessionState(session: FieldSession): SessionState {
  return useSyncExternalStore(session.subscribe, () => session.state);
}
