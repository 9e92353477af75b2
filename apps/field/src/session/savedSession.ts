/** What the device keeps of a sign-in, so reopening the app does not ask again. */
export interface SavedSession {
  phone: string;
  /** The server's `resume` token (docs/terminal-protocol.md "Login"). */
  token: string;
  uid: number;
  name: string;
}

const KEY = 'intercom.field.session';

function isSaved(value: unknown): value is SavedSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.phone === 'string' &&
    typeof v.token === 'string' &&
    typeof v.uid === 'number' &&
    typeof v.name === 'string'
  );
}

export function readSavedSession(): SavedSession | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return isSaved(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function writeSavedSession(session: SavedSession): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(session));
  } catch {
    // Private mode or a full store: the sign-in lasts while the page is open.
  }
}

export function forgetSavedSession(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}
