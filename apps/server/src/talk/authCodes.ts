import { randomBytes } from 'node:crypto';
import { TalkLimits, dispatchNoOf, type AuthCode } from '@intercom/contract';
import type { Redis } from 'ioredis';

/**
 * Who an AuthCode logs in: a console account and the session that asked. The seat lives only as long
 * as that session (DESIGN.md 11), so redeeming checks the session again and the seat's scope is read
 * from it at use, never frozen here.
 */
export interface SeatGrant {
  A_ID: number;
  E_ID: number;
  /** The console session the code was issued to. */
  S_ID: number;
  name: string;
  expiresAt: number;
}

/** Issues and redeems AuthCodes: in this process, or in Redis so that any instance accepts them. */
export interface AuthCodeStore {
  /** `now` (here and in `redeem`) is AppDeps.clock's time: a code expires on the app's clock. */
  issue(account: Omit<SeatGrant, 'expiresAt'>, now: number): AuthCode | Promise<AuthCode>;
  redeem(authCode: string, now: number): SeatGrant | undefined | Promise<SeatGrant | undefined>;
}

const newCode = () => randomBytes(24).toString('base64url');

/**
 * One-time codes that open a dispatcher seat on `/terminal` (DESIGN.md section 7). A code is
 * 24 random bytes, valid for 60 s and for one login; a session holds at most one at a time
 * (asking again replaces the previous code), so the map never grows past the number of sessions.
 */
export class AuthCodes implements AuthCodeStore {
  private readonly codes = new Map<string, SeatGrant>();
  private readonly bySession = new Map<number, string>();

  constructor(private readonly ttlMs: number = TalkLimits.authCodeTtlMs) {}

  issue(account: Omit<SeatGrant, 'expiresAt'>, now: number): AuthCode {
    this.prune(now);
    const previous = this.bySession.get(account.S_ID);
    if (previous) this.codes.delete(previous);
    const authCode = newCode();
    const expiresAt = now + this.ttlMs;
    this.codes.set(authCode, { ...account, expiresAt });
    this.bySession.set(account.S_ID, authCode);
    return { authCode, expiresAt, dispatchNo: dispatchNoOf(account.A_ID) };
  }

  /** The grant of a valid code, which is used up; undefined for an unknown, used or expired one. */
  redeem(authCode: string, now: number): SeatGrant | undefined {
    const grant = this.codes.get(authCode);
    if (!grant) return undefined;
    this.codes.delete(authCode);
    if (this.bySession.get(grant.S_ID) === authCode) this.bySession.delete(grant.S_ID);
    return grant.expiresAt > now ? grant : undefined;
  }

  private prune(now: number): void {
    for (const [code, grant] of this.codes) {
      if (grant.expiresAt > now) continue;
      this.codes.delete(code);
      if (this.bySession.get(grant.S_ID) === code) this.bySession.delete(grant.S_ID);
    }
  }
}

/*
 * Stores the grant under the code, and the session's current code under the session (so asking
 * again voids the previous code); GETDEL makes a code usable once even when two instances race.
 */
const ISSUE = `
local previous = redis.call('GET', KEYS[2])
if previous then redis.call('DEL', ARGV[4] .. previous) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1`;

/** The same codes in Redis (REDIS_URL): issued by one instance, redeemed on any. Keys expire with the code. */
export class RedisAuthCodes implements AuthCodeStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number = TalkLimits.authCodeTtlMs,
  ) {}

  async issue(account: Omit<SeatGrant, 'expiresAt'>, now: number): Promise<AuthCode> {
    const authCode = newCode();
    const expiresAt = now + this.ttlMs;
    const codeKey = `${this.prefix}:code:`;
    await this.redis.eval(
      ISSUE,
      2,
      codeKey + authCode,
      `${this.prefix}:session:${account.S_ID}`,
      JSON.stringify({ ...account, expiresAt }),
      authCode,
      this.ttlMs,
      codeKey,
    );
    return { authCode, expiresAt, dispatchNo: dispatchNoOf(account.A_ID) };
  }

  async redeem(authCode: string, now: number): Promise<SeatGrant | undefined> {
    const value = await this.redis.getdel(`${this.prefix}:code:${authCode}`);
    if (!value) return undefined;
    const grant = JSON.parse(value) as SeatGrant;
    return grant.expiresAt > now ? grant : undefined;
  }
}
