import { useEffect, useState } from 'react';

/** m:ss of a duration in ms. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Time since `since` (epoch ms), ticking once a second while shown (only while someone talks). */
export function useElapsed(since: number | null): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  // Until the first tick `now` may be older than `since`: that reads 0:00.
  return since === null ? '' : formatDuration(now - since);
}
