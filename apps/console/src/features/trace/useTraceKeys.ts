import { useEffect } from 'react';
import type { PlaybackClock } from './PlaybackClock';

/** Arrows step this share of the timeline. */
const STEP = 0.01;

/** Fields where a key belongs to the field: typing a name or a date must not play or seek. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(target.tagName) ||
    target.closest('[role="dialog"]') !== null
  );
}

/**
 * The replay's keys: Space plays and pauses, left and right seek back and on, up and down change
 * the speed. A focused button keeps Space (it clicks itself, as every button does).
 */
export function useTraceKeys(clock: PlaybackClock, span: { begin: number; end: number } | undefined) {
  useEffect(() => {
    if (!span) return;
    const step = (span.end - span.begin) * STEP;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
      const actions: Record<string, () => void> = {
        ' ': () => clock.toggle(),
        ArrowLeft: () => clock.seek(clock.get().time - step),
        ArrowRight: () => clock.seek(clock.get().time + step),
        ArrowUp: () => clock.changeSpeed(1),
        ArrowDown: () => clock.changeSpeed(-1),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [clock, span]);
}
