import type { ApiError } from './ApiError';

/** What the API client reports to whoever shows toasts and dialogs (the client itself has no UI). */
export type ApiEvent =
  | { type: 'connection'; error: ApiError }
  | { type: 'session'; error: ApiError }
  /** A query (not a mutation) failed with a server answer: "query error" plus the message. */
  | { type: 'query'; error: ApiError };

type Listener = (event: ApiEvent) => void;
const listeners = new Set<Listener>();

export function onApiEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function emitApiEvent(event: ApiEvent): void {
  for (const listener of listeners) listener(event);
}
