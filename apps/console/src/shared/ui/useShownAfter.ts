import { useEffect, useState } from 'react';

/**
 * How long a loading indicator waits before it appears. Most loads end sooner, and a spinner that
 * flashes for a moment only distracts; an animated one also keeps the browser drawing frames, which
 * on a PC without a GPU (WebGL in software) delays the map's first frame (docs/benchmarks.md).
 */
export const LOADING_DELAY_MS = 400;

/** False until `ms` have passed since the component mounted. */
export function useShownAfter(ms: number = LOADING_DELAY_MS): boolean {
  const [shown, setShown] = useState(ms <= 0);
  useEffect(() => {
    if (ms <= 0) return;
    const timer = window.setTimeout(() => setShown(true), ms);
    return () => window.clearTimeout(timer);
  }, [ms]);
  return shown;
}
