import { useSyncExternalStore } from 'react';
import { liveHub } from './liveHub';
import type { LiveViewSnapshot } from './LiveView';

/**
 * A part of the page's view of the hub; re-renders when that part changes (once per burst). The
 * selector must return a primitive or an object of the snapshot itself, never a new object.
 * A component mounted late gets what is already known at once.
 */
export function useHubSnapshot<T>(selector: (snapshot: LiveViewSnapshot) => T): T {
  const { view } = liveHub;
  return useSyncExternalStore(view.subscribe, () => selector(view.getSnapshot()));
}
