/**
 * A token bucket: `perSecond` takes on average, `burst` at once. One per rate-limited stream
 * (a terminal's messages, a talker's audio frames, a camera's video frames).
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** Takes one token if there is one; `now` in ms. A clock that steps back refills nothing until it passes the last refill again. */
  take(now: number): boolean {
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
      this.refilledAt = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
