/**
 * The timer functions every JavaScript runtime has. Declared here, module-scoped, so the package
 * needs neither DOM nor Node types; at run time the names resolve to the runtime's globals (and to
 * a test's fake timers).
 */
export type TimerHandle = unknown;
declare function setTimeout(callback: () => void, ms: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle): void;
declare function setInterval(callback: () => void, ms: number): TimerHandle;
declare function clearInterval(handle: TimerHandle): void;

/** Runs `callback` once after `ms`; `background`: Node may exit while it waits (a browser ignores it). */
export function after(ms: number, callback: () => void, background = false): TimerHandle {
  const handle = setTimeout(callback, ms);
  if (background) (handle as { unref?: () => void }).unref?.();
  return handle;
}

export function every(ms: number, callback: () => void): TimerHandle {
  return setInterval(callback, ms);
}

/** Stops a timer from `after` or `every`; undefined is a no-op. */
export function cancel(handle: TimerHandle): void {
  if (handle === undefined) return;
  clearTimeout(handle);
  clearInterval(handle);
}
