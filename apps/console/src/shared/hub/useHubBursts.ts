import { useEffect, useRef } from 'react';
import { liveHub } from './liveHub';
import type { BurstListener } from './LiveView';

/** Hands the events of every later burst of hub messages (online delta, alarm pushed) to `listener`. */
export function useHubBursts(listener: BurstListener): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => liveHub.view.subscribeBursts((burst) => latest.current(burst)), []);
}
