import { useSyncExternalStore } from 'react';
import { liveHub } from './liveHub';
import type { LiveSnapshot } from './liveSnapshot';

/**
 * A part of the hub's latest state; re-renders when that part changes (once per burst). The
 * selector must return a primitive or an object of the snapshot itself, never a new object.
 * A component mounted late gets what is already known at once.
 */
export function useHubSnapshot<T>(selector: (snapshot: LiveSnapshot) => T): T {
  const { store } = liveHub;
  return useSyncExternalStore(store.subscribe, () => selector(store.getSnapshot()));
}
