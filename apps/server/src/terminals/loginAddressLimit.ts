import type { FastifyBaseLogger } from 'fastify';
import type { CountWindows } from '../bus/redisRateLimitStore.js';

export interface LoginAddressLimits {
  /** Failed logins from one address within a window, after which its logins are refused until the window ends. */
  maxFailures: number;
  windowMs: number;
}

/**
 * Failed `/terminal` logins per client address: the address every per-IP limit uses (`request.ip`,
 * resolved by `TRUST_PROXY`, DESIGN.md 11), counted in fixed windows in the store of the console's
 * per-IP limits (shared by every instance with `REDIS_URL`). Past `maxFailures` within a window the
 * gateway refuses the address's logins before any password is checked, so one address can neither
 * guess on at the scrypt's cost nor walk through every phone's lock.
 *
 * Only failures count: a fleet behind one carrier NAT logging in with right passwords is never
 * limited, and a login that a good `resume` token or AuthCode lets in is never refused (the gateway
 * checks possession first).
 */
export class LoginAddressLimit {
  constructor(
    private readonly windows: CountWindows,
    private readonly limits: LoginAddressLimits,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Milliseconds until the address may try again, 0 when it may now. */
  async limitedFor(ip: string, now: number): Promise<number> {
    const { current, ttl } = await this.windows.peek(ip, now);
    return current >= this.limits.maxFailures ? Math.max(ttl, 1) : 0;
  }

  /** One more failed login from the address; the one that reaches the limit is logged (once per window). */
  async failed(ip: string, now: number): Promise<void> {
    const { current, ttl } = await this.windows.incr(ip, this.limits.windowMs, now);
    if (current === this.limits.maxFailures) {
      this.log.warn({ ip, failures: current, retryAfterMs: ttl }, 'terminal logins from this address rate-limited');
    }
  }
}
