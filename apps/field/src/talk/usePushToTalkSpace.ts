import { useEffect } from 'react';

/** A space typed in a field (or a button's own Space, as on Answer) never keys the microphone. */
function ownsSpace(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [role="textbox"], button:not([data-ptt])') !== null;
}

const EVENTS = ['keydown', 'keyup', 'blur'] as const;

/** The Space key held talks, released stops (a desktop browser, a phone with a keyboard). */
export function usePushToTalkSpace(press: () => void, release: () => void): void {
  useEffect(() => {
    let held = false;
    const hold = (on: boolean) => {
      if (held === on) return;
      held = on;
      if (on) press();
      else release();
    };
    // Leaving the window while holding Space would never deliver the keyup: a blur lets go too.
    const onEvent = (event: Event) => {
      if (event.type === 'blur') return hold(false);
      if (!(event instanceof KeyboardEvent) || event.code !== 'Space') return;
      const down = event.type === 'keydown';
      if (down ? ownsSpace(event.target) : !held) return;
      event.preventDefault();
      if (!event.repeat) hold(down);
    };
    for (const type of EVENTS) window.addEventListener(type, onEvent);
    return () => {
      for (const type of EVENTS) window.removeEventListener(type, onEvent);
      hold(false);
    };
  }, [press, release]);
}
