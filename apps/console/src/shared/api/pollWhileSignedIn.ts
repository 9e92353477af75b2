import { hasAccessToken } from '../storage/tokenStore';
import { isSessionEnded } from './sessionState';

/**
 * A query's `refetchInterval` that polls every `ms` only while this tab is signed in: once the
 * session has ended (signed out, or signed in elsewhere) the next poll is not scheduled, so no
 * request goes out to be answered 401. TanStack reads the interval again after each fetch, so
 * polling resumes once a new sign-in refetches the query.
 */
export function pollWhileSignedIn(ms: number): () => number | false {
  return () => (isSessionEnded() || !hasAccessToken() ? false : ms);
}
