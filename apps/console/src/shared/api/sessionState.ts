import { useSyncExternalStore } from 'react';

/**
 * Whether the server has said this tab's session is over (1001, 50008, 50012, 50014). Background
 * polling stops then, so a dismissed re-login dialog is not reopened every 30 seconds; anything
 * the user does next still gets the dialog.
 */
let ended = false;
const listeners = new Set<() => void>();

export function markSessionEnded(): void {
  if (ended) return;
  ended = true;
  listeners.forEach((l) => l());
}

export function resetSessionState(): void {
  if (!ended) return;
  ended = false;
  listeners.forEach((l) => l());
}

export function isSessionEnded(): boolean {
  return ended;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useSessionEnded(): boolean {
  return useSyncExternalStore(subscribe, isSessionEnded);
}
