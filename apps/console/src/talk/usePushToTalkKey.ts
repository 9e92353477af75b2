import { PTT_KEY_CODE } from '@intercom/contract';
import { useEffect } from 'react';
import { talk as talkClient } from './talk';

/** Typing a space in a field, a button or a menu must never key the microphone. */
function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return (
    target.closest(
      'input, textarea, select, [role="textbox"], [role="combobox"], button, [role="button"], [role="menuitem"]',
    ) !== null
  );
}

/** Space (key code 32) held = ApplyMic, released = FreeMic (SPEC.md 4, 9); only while a seat is logged in. */
export function usePushToTalkKey(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let held = false;
    const down = (event: KeyboardEvent) => {
      if (event.keyCode !== PTT_KEY_CODE && event.code !== 'Space') return;
      if (typingTarget(event.target)) return;
      event.preventDefault();
      if (event.repeat || held) return;
      held = true;
      void talkClient.applyMic().catch(() => undefined);
    };
    const up = (event: KeyboardEvent) => {
      if ((event.keyCode !== PTT_KEY_CODE && event.code !== 'Space') || !held) return;
      held = false;
      event.preventDefault();
      void talkClient.freeMic().catch(() => undefined);
    };
    // Leaving the window while holding Space would never deliver the keyup.
    const blur = () => {
      if (!held) return;
      held = false;
      void talkClient.freeMic().catch(() => undefined);
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
      blur();
    };
  }, [enabled]);
}
