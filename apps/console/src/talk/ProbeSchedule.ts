import { TALK_RETRY_MS } from '@intercom/contract';

/** The longest wait between two probes of an agent that does not answer. */
export const PROBE_MAX_MS = 60_000;
/** After a connection was lost, this many retries keep SPEC.md's 5 s pace (an agent restarting). */
export const PROBE_STEADY_RETRIES = 12;
/** Each wait is shortened by up to this share, so many consoles do not probe in step. */
export const PROBE_JITTER = 0.2;

/**
 * When to look for the local talk agent again. Every refused probe is a red line in the browser's
 * console, so an agent that was never seen is probed ever less often: 5, 10, 20, 40 s, then every
 * minute. One that was connected and went away (restarted, updated) is retried every 5 s
 * (TALK_RETRY_MS, SPEC.md 4) for a minute, then the same growth. Each wait is shortened by up to
 * 20 % at random (never lengthened, so the 5 s pace holds).
 */
export class ProbeSchedule {
  private failures = 0;
  private seen = false;

  constructor(private readonly random: () => number = Math.random) {}

  /** The wait before the next probe, counting this failure. */
  next(): number {
    const failure = this.failures++;
    let nominal: number;
    if (this.seen && failure < PROBE_STEADY_RETRIES) nominal = TALK_RETRY_MS;
    else {
      const step = this.seen ? failure - PROBE_STEADY_RETRIES + 1 : failure;
      nominal = Math.min(PROBE_MAX_MS, TALK_RETRY_MS * 2 ** Math.min(step, 16));
    }
    return Math.round(nominal * (1 - PROBE_JITTER * this.random()));
  }

  /** Connected: the next loss starts again at the steady pace. */
  connected(): void {
    this.seen = true;
    this.failures = 0;
  }
}
