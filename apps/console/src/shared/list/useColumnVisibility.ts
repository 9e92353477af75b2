import { useCallback, useState } from 'react';
import { readPreference, writePreference } from '../storage/localPreference';

/** Stored under `columns.<list>`: the keys of the columns the user switched off. */
function storageKey(list: string): string {
  return `columns.${list}`;
}

function readHidden(list: string, fallback: readonly string[]): string[] {
  const stored = readPreference(storageKey(list));
  if (stored === null) return [...fallback];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === 'string') : [...fallback];
  } catch {
    return [...fallback];
  }
}

/** Which columns of a list are hidden; the choice survives a reload. */
export function useColumnVisibility(list: string | undefined, defaultHidden: readonly string[] = []) {
  const [hidden, setHiddenState] = useState<string[]>(() => (list ? readHidden(list, defaultHidden) : []));
  const setHidden = useCallback(
    (keys: string[]) => {
      setHiddenState(keys);
      if (list) writePreference(storageKey(list), JSON.stringify(keys));
    },
    [list],
  );
  return [hidden, setHidden] as const;
}
