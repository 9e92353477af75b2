import { lazy, Suspense } from 'react';
import type { FieldSession } from '../session/fieldSession';
import { SignIn } from './SignIn';
import { SessionContext, useSessionState } from './useSession';

/** The signed-in screens load after sign-in, so the first screen stays small. */
const SignedIn = lazy(() => import('./SignedIn').then((module) => ({ default: module.SignedIn })));

/** Sign-in until a session exists (or a kept one reopens), then the radio. */
export function App({ session }: { session: FieldSession }) {
  const state = useSessionState(session);
  return (
    <SessionContext.Provider value={session}>
      {state.kind === 'signedIn' ? (
        <Suspense fallback={<div className="fieldLoading" />}>
          <SignedIn state={state} />
        </Suspense>
      ) : (
        <SignIn messageKey={state.messageKey} />
      )}
    </SessionContext.Provider>
  );
}
