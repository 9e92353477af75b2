import { useCallback, useMemo, useState, type Key } from 'react';
import type { ListSelection } from './ListShell';

export interface ListSelectionState<T> extends ListSelection<T> {
  /** The ticked rows this page has seen (a row ticked on another page and not seen is left out). */
  rows: T[];
  clear: () => void;
  /** Unticks these keys (rows just deleted must not stay ticked). */
  drop: (keys: readonly Key[]) => void;
}

interface Ticked<T> {
  keys: Key[];
  rows: T[];
  scope: unknown;
}

/**
 * The ticked rows of a list (its `selection`). They survive paging and filtering, and are cleared
 * when `scope` changes (another working enterprise: the ticked rows belong to the old one).
 */
export function useListSelection<T extends object>(rowKey: keyof T & string, scope?: unknown): ListSelectionState<T> {
  const [state, setState] = useState<Ticked<T>>({ keys: [], rows: [], scope });
  if (state.scope !== scope) setState({ keys: [], rows: [], scope });
  const current = state.scope === scope;

  const onChange = useCallback(
    (keys: Key[], seen: T[]) =>
      setState((previous) => {
        // antd hands rows of other pages as undefined; keep those seen before.
        const known = new Map([...previous.rows, ...seen.filter(Boolean)].map((row) => [String(row[rowKey]), row]));
        return { ...previous, keys, rows: keys.flatMap((key) => known.get(String(key)) ?? []) };
      }),
    [rowKey],
  );
  const clear = useCallback(() => setState((previous) => ({ ...previous, keys: [], rows: [] })), []);
  const drop = useCallback(
    (dropped: readonly Key[]) => {
      const gone = new Set(dropped.map(String));
      setState((previous) => ({
        ...previous,
        keys: previous.keys.filter((key) => !gone.has(String(key))),
        rows: previous.rows.filter((row) => !gone.has(String(row[rowKey]))),
      }));
    },
    [rowKey],
  );
  const keys = current ? state.keys : NONE;
  const rows = current ? state.rows : (NONE as T[]);
  return useMemo(() => ({ keys, rows, onChange, clear, drop }), [keys, rows, onChange, clear, drop]);
}

const NONE: never[] = [];
