import { useSyncExternalStore } from 'react';

interface Store<T> {
  readonly subscribe: (listener: () => void) => () => void;
  readonly view: T;
}

/** A controller's current view, re-rendering on each change. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, () => store.view);
}
