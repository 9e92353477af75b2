import type { IRetryPolicy } from '@microsoft/signalr';

/** The longest wait between two attempts to reach the hub. */
export const MAX_RECONNECT_DELAY_MS = 30_000;
const FIRST_DELAY_MS = 1_000;
/** The first attempt comes within this: 1,000 consoles cut off by one restart spread over half a second. */
export const FIRST_ATTEMPT_SPREAD_MS = 500;

/**
 * Wait before attempt `retryCount + 1` after a lost connection: within half a second, then about
 * 1, 2, 4, 8, 16 and from then on 30 seconds, never giving up. Each wait is drawn at random (the
 * first between 0 and half a second, the others between half and all of their step), so consoles
 * that lost the server together do not all come back in the same instant.
 */
export function reconnectDelayMs(retryCount: number, random: () => number = Math.random): number {
  if (retryCount <= 0) return Math.round(FIRST_ATTEMPT_SPREAD_MS * random());
  const step = Math.min(MAX_RECONNECT_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(retryCount - 1, 30));
  return Math.round(step / 2 + (step / 2) * random());
}

/** A 401 from the hub: the session is over, and retrying with the same token cannot help. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof Error && /Status code '401'/.test(error.message);
}

/**
 * `withAutomaticReconnect` policy: the back-off above for as long as the connection is lost, but
 * no retry after a 401 (the client then closes and the session-failure path takes over).
 */
export function keepRetryingPolicy(random: () => number = Math.random): IRetryPolicy {
  return {
    nextRetryDelayInMilliseconds: ({ previousRetryCount, retryReason }) =>
      isUnauthorized(retryReason) ? null : reconnectDelayMs(previousRetryCount, random),
  };
}
