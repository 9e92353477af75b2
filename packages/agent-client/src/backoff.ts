/** When to try again after a connection failed or was lost. */
export interface ReconnectSchedule {
  /** The wait before the next attempt, counting this failure. */
  next(): number;
  /** An attempt succeeded: the next loss starts over. */
  connected(): void;
}

export interface BackoffOptions {
  /** First wait (default 1 s); each failure doubles it up to maxMs (default 30 s). */
  initialMs?: number;
  maxMs?: number;
  /** Each wait is shortened by up to this share (default 0.2), so many clients do not retry in step. */
  jitter?: number;
  random?: () => number;
}

/**
 * Doubling waits with jitter that only shortens (never past maxMs): the agent protocol's own
 * rhythm for the platform (docs/talk-agent-protocol.md, "Losing the platform"), and a default for
 * clients that have no rule of their own. The console uses its ProbeSchedule instead (SPEC.md 4).
 */
export class ExponentialBackoff implements ReconnectSchedule {
  private failures = 0;

  constructor(private readonly options: BackoffOptions = {}) {}

  next(): number {
    const { initialMs = 1_000, maxMs = 30_000, jitter = 0.2, random = Math.random } = this.options;
    const nominal = Math.min(maxMs, initialMs * 2 ** Math.min(this.failures++, 30));
    return Math.round(nominal * (1 - jitter * random()));
  }

  connected(): void {
    this.failures = 0;
  }
}
