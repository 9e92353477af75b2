/**
 * The one source of time for the server's timing rules (DESIGN.md section 12): what time it is, and
 * timers. The app runs on `systemClock`; a test gives the app (or one rule) a `FakeClock` and moves
 * time with `advance`, so a rule of minutes is tested in milliseconds and no test waits on a
 * loaded machine. Modelled on the console's injected scheduler (apps/console/src/shared/hub/LiveStore.ts).
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `run` once after `ms`; the returned timer does not keep the process alive. */
  timeout(run: () => void, ms: number): ClockTimer;
  /** Runs `run` every `ms` until cancelled; the timer does not keep the process alive. */
  interval(run: () => void, ms: number): ClockTimer;
}

export interface ClockTimer {
  cancel(): void;
}

/** Real time and Node's timers (unref'd: a rule's timer never holds a shutdown back). */
export const systemClock: Clock = {
  now: () => Date.now(),
  timeout(run, ms) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  interval(run, ms) {
    const timer = setInterval(run, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};

interface Pending {
  at: number;
  every: number | null;
  run: () => void;
  order: number;
}

/**
 * Time that moves only when a test says so. Timers due within an `advance` run in time order (ties
 * in the order they were set), each seeing `now()` at its own due time; an interval runs once per
 * period passed. `advance` awaits the promise jobs after each timer, so async work a timer starts
 * settles before the next one runs.
 */
export class FakeClock implements Clock {
  private time: number;
  private readonly pending = new Set<Pending>();
  private order = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  timeout(run: () => void, ms: number): ClockTimer {
    return this.add(run, ms, null);
  }

  interval(run: () => void, ms: number): ClockTimer {
    if (!(ms > 0)) throw new RangeError(`an interval needs a period above 0 ms, not ${ms}`);
    return this.add(run, ms, ms);
  }

  /** Timers not yet run or cancelled. */
  get timers(): number {
    return this.pending.size;
  }

  /** Moves time `ms` forward, running every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`time only moves forward, not by ${ms} ms`);
    const end = this.time + ms;
    for (let next = this.nextDue(end); next; next = this.nextDue(end)) {
      // A timer overdue after a `stall` runs now, as Node runs it when the loop comes back.
      this.time = Math.max(this.time, next.at);
      if (next.every === null) this.pending.delete(next);
      // Like Node's setInterval, an interval that fell behind runs once and goes on from now.
      else next.at = this.time + next.every;
      next.run();
      // Let promise jobs the timer started settle before the next timer (a rule's awaited write).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }

  /**
   * Moves time `ms` forward and runs nothing: a stalled event loop (a GC pause, a busy tick). The
   * timers that fell due run, once each, at the next `advance`.
   */
  stall(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`time only moves forward, not by ${ms} ms`);
    this.time += ms;
  }

  private add(run: () => void, ms: number, every: number | null): ClockTimer {
    const entry: Pending = { at: this.time + Math.max(0, ms), every, run, order: this.order++ };
    this.pending.add(entry);
    return { cancel: () => this.pending.delete(entry) };
  }

  private nextDue(end: number): Pending | undefined {
    let first: Pending | undefined;
    for (const entry of this.pending) {
      if (entry.at > end) continue;
      if (!first || entry.at < first.at || (entry.at === first.at && entry.order < first.order)) first = entry;
    }
    return first;
  }
}
