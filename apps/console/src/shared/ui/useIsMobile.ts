import { Limits } from '@intercom/contract';
import { useSyncExternalStore } from 'react';

const query = `(max-width: ${Limits.mobileBreakpointPx - 0.02}px)`;

function subscribe(listener: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

/** Below 992 px the layout is in mobile mode (SPEC.md section 2). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
