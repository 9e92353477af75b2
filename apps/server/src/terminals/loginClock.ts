import { randomUUID } from 'node:crypto';
import type { TerminalLoginStamp } from '../bus/eventBus.js';

/** Users whose latest login on another instance is remembered at most (the oldest go first). */
const MAX_REMEMBERED = 100_000;

/** Whether login `a` came after login `b`: one total order over every instance's logins. */
export function isNewerLogin(a: TerminalLoginStamp, b: TerminalLoginStamp | null): boolean {
  if (!b) return true;
  if (a.at !== b.at) return a.at > b.at;
  if (a.instance !== b.instance) return a.instance > b.instance;
  return a.connection > b.connection;
}

/**
 * Stamps this instance's terminal logins. A stamp's `at` is the wall-clock time, but always after
 * any login of that user heard of from another instance (a per-user logical clock), so a login
 * accepted after hearing of another one is the newer even when the servers' clocks disagree.
 */
export class LoginClock {
  /** Tells this instance's logins apart from other instances' on the event bus. */
  readonly instance = randomUUID();
  private count = 0;
  /** The latest `at` of each user's logins on other instances. */
  private readonly heardOf = new Map<number, number>();

  /**
   * @param now the gateway's time: login stamps, the wrong-password lock, the per-address failure
   *   windows and resume tokens' expiry read it, so tests run those rules in fake time.
   */
  constructor(readonly now: () => number = Date.now) {}

  stamp(U_ID: number, now = this.now()): TerminalLoginStamp {
    this.count += 1;
    return { instance: this.instance, connection: this.count, at: Math.max(now, (this.heardOf.get(U_ID) ?? 0) + 1) };
  }

  /** A login of this user on another instance. */
  heard(U_ID: number, login: TerminalLoginStamp): void {
    if ((this.heardOf.get(U_ID) ?? 0) >= login.at) return;
    this.heardOf.delete(U_ID);
    this.heardOf.set(U_ID, login.at);
    if (this.heardOf.size > MAX_REMEMBERED) {
      const oldest = this.heardOf.keys().next();
      if (!oldest.done) this.heardOf.delete(oldest.value);
    }
  }
}
