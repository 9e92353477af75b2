/**
 * The clock AgentClient waits on: reply timeouts and reconnect delays. The default is the runtime's
 * (looked up at each call, so a test's fake timers apply); `ManualTimers` (the `testing` entry) is
 * one a test advances by hand.
 */
export interface AgentTimers {
  after(ms: number, callback: () => void): unknown;
  cancel(handle: unknown): void;
  now(): number;
}

// Declared here, module-scoped, so the package needs neither DOM nor Node types; at run time the
// names resolve to the runtime's globals (and to a test's fake timers).
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

export const runtimeTimers: AgentTimers = {
  after: (ms, callback) => setTimeout(callback, ms),
  cancel: (handle) => {
    if (handle !== undefined) clearTimeout(handle);
  },
  now: () => Date.now(),
};
