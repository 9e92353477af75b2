import { randomBytes } from 'node:crypto';
import { TalkLimits, dispatchNoOf, type AuthCode } from '@intercom/contract';
import type { Scope } from '../tenancy/scope.js';

/** Who an AuthCode logs in: a console account with its scope at the time it asked. */
export interface SeatGrant {
  A_ID: number;
  E_ID: number;
  name: string;
  scope: Scope;
  expiresAt: number;
}

/**
 * One-time codes that open a dispatcher seat on `/terminal` (DESIGN.md section 7). A code is
 * 24 random bytes, valid for 60 s and for one login; an account holds at most one at a time
 * (asking again replaces the previous code), so the map never grows past the number of accounts.
 */
export class AuthCodes {
  private readonly codes = new Map<string, SeatGrant>();
  private readonly byAccount = new Map<number, string>();

  constructor(private readonly ttlMs: number = TalkLimits.authCodeTtlMs) {}

  issue(account: Omit<SeatGrant, 'expiresAt'>, now = Date.now()): AuthCode {
    this.prune(now);
    const previous = this.byAccount.get(account.A_ID);
    if (previous) this.codes.delete(previous);
    const authCode = randomBytes(24).toString('base64url');
    const expiresAt = now + this.ttlMs;
    this.codes.set(authCode, { ...account, expiresAt });
    this.byAccount.set(account.A_ID, authCode);
    return { authCode, expiresAt, dispatchNo: dispatchNoOf(account.A_ID) };
  }

  /** The grant of a valid code, which is used up; undefined for an unknown, used or expired one. */
  redeem(authCode: string, now = Date.now()): SeatGrant | undefined {
    const grant = this.codes.get(authCode);
    if (!grant) return undefined;
    this.codes.delete(authCode);
    if (this.byAccount.get(grant.A_ID) === authCode) this.byAccount.delete(grant.A_ID);
    return grant.expiresAt > now ? grant : undefined;
  }

  private prune(now: number): void {
    for (const [code, grant] of this.codes) {
      if (grant.expiresAt > now) continue;
      this.codes.delete(code);
      if (this.byAccount.get(grant.A_ID) === code) this.byAccount.delete(grant.A_ID);
    }
  }
}
