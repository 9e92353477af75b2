/** Entries kept at most; past it the oldest unlocked ones go (a flood of made-up phones stays bounded). */
const MAX_ENTRIES = 50_000;

export interface LoginThrottleLimits {
  /** Wrong passwords in a row after which the phone is locked. */
  maxFailures: number;
  lockMs: number;
}

/**
 * Wrong passwords per phone: after `maxFailures` in a row, logins of that phone are refused for
 * `lockMs` (as console accounts are, DESIGN.md section 4), whether the phone exists or not.
 * In memory per instance by default (`MemoryLoginThrottle`), shared by every instance in Redis when
 * `REDIS_URL` is set (`RedisLoginThrottle`). No method rejects.
 */
export interface LoginThrottle {
  /**
   * Milliseconds the phone stays locked, 0 when it may try. `now` (here and in `failed`) is the
   * caller's clock (AppDeps.clock), which the in-memory throttle follows; Redis keeps its own.
   */
  lockedFor(phone: string, now: number): Promise<number>;
  failed(phone: string, now: number): Promise<void>;
  succeeded(phone: string): Promise<void>;
  /** Drops expired in-memory entries (the gateway's sweep calls it). */
  prune(now: number): void;
}

/** The embedded throttle: one process, kept in memory. */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly entries = new Map<string, { failures: number; lockedUntil: number }>();

  constructor(private readonly limits: LoginThrottleLimits) {}

  lockedFor(phone: string, now: number): Promise<number> {
    return Promise.resolve(this.lockedForNow(phone, now));
  }

  /** `lockedFor` without the promise. */
  lockedForNow(phone: string, now: number): number {
    const entry = this.entries.get(phone);
    return entry && entry.lockedUntil > now ? entry.lockedUntil - now : 0;
  }

  failed(phone: string, now: number): Promise<void> {
    this.failedNow(phone, now);
    return Promise.resolve();
  }

  /** `failed` without the promise. */
  failedNow(phone: string, now: number): void {
    const entry = this.entries.get(phone) ?? { failures: 0, lockedUntil: 0 };
    entry.failures += 1;
    if (entry.failures >= this.limits.maxFailures) {
      entry.failures = 0;
      entry.lockedUntil = now + this.limits.lockMs;
    }
    this.entries.delete(phone);
    this.entries.set(phone, entry);
    if (this.entries.size > MAX_ENTRIES) this.prune(now, MAX_ENTRIES / 2);
  }

  succeeded(phone: string): Promise<void> {
    this.entries.delete(phone);
    return Promise.resolve();
  }

  /** Drops expired locks; with `keep`, also the oldest entries beyond it. */
  prune(now: number, keep = Infinity): void {
    let excess = this.entries.size - keep;
    for (const [phone, entry] of this.entries) {
      if (entry.lockedUntil !== 0 && entry.lockedUntil <= now) this.entries.delete(phone);
      else if (excess > 0 && entry.lockedUntil <= now) this.entries.delete(phone);
      else continue;
      excess -= 1;
    }
  }
}
