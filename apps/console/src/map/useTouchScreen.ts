import { useSyncExternalStore } from 'react';

// Not shared/ui's useMediaQuery: map/ imports no shared/ui (docs/console-layout.md).

const query = '(pointer: coarse)';

function subscribe(listener: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

/** The main pointer is a finger: the drawing hints say tap, not click and double-click. */
export function useTouchScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
