/** Entries kept at most; past it the oldest unlocked ones go (a flood of made-up phones stays bounded). */
const MAX_ENTRIES = 50_000;

/**
 * Wrong passwords per phone: after `maxFailures` in a row, logins of that phone are refused for
 * `lockMs` (as console accounts are, DESIGN.md section 4). Kept in memory, per instance.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, { failures: number; lockedUntil: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly lockMs: number,
  ) {}

  /** Milliseconds the phone stays locked, 0 when it may try. */
  lockedFor(phone: string, now = Date.now()): number {
    const entry = this.entries.get(phone);
    return entry && entry.lockedUntil > now ? entry.lockedUntil - now : 0;
  }

  failed(phone: string, now = Date.now()): void {
    const entry = this.entries.get(phone) ?? { failures: 0, lockedUntil: 0 };
    entry.failures += 1;
    if (entry.failures >= this.maxFailures) {
      entry.failures = 0;
      entry.lockedUntil = now + this.lockMs;
    }
    this.entries.delete(phone);
    this.entries.set(phone, entry);
    if (this.entries.size > MAX_ENTRIES) this.prune(now, MAX_ENTRIES / 2);
  }

  succeeded(phone: string): void {
    this.entries.delete(phone);
  }

  /** Drops expired locks; with `keep`, also the oldest entries beyond it. */
  prune(now = Date.now(), keep = Infinity): void {
    let excess = this.entries.size - keep;
    for (const [phone, entry] of this.entries) {
      if (entry.lockedUntil !== 0 && entry.lockedUntil <= now) this.entries.delete(phone);
      else if (excess > 0 && entry.lockedUntil <= now) this.entries.delete(phone);
      else continue;
      excess -= 1;
    }
  }
}
