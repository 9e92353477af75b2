import { useEffect } from 'react';

/**
 * Holds a Screen Wake Lock while the page is visible (the browser drops it when the page is hidden;
 * it is taken again when the page shows). Where the API is missing, nothing happens.
 */
export function useWakeLock(): void {
  useEffect(() => {
    if (!('wakeLock' in navigator)) return undefined;
    let lock: WakeLockSentinel | undefined;
    let stopped = false;
    const acquire = () => {
      if (stopped || document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      navigator.wakeLock.request('screen').then(
        (taken) => {
          if (stopped) void taken.release();
          else lock = taken;
        },
        () => undefined,
      );
    };
    acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', acquire);
      void lock?.release().catch(() => undefined);
    };
  }, []);
}
