import { Limits } from '@intercom/contract';
import { sql, type Kysely } from 'kysely';
import type { AppDeps } from '../../appDeps.js';
import type { DB } from '../../db/schema.js';
import type { LoginThrottle } from '../../bus/loginThrottle.js';

const LOCK_MS = Limits.loginLockMinutes * 60_000;

/**
 * One more wrong password of a known account, counted in a single statement (concurrent failures
 * at any instance are all counted): at the fifth the count restarts and the account locks.
 * Returns the failures so far and whether this one locked the account.
 */
export async function countAccountFailure(
  db: Kysely<DB>,
  accountId: number,
  now: number,
): Promise<{ failures: number; locked: boolean }> {
  const next = sql<number>`${sql.ref('FailedCount')} + 1`;
  const reaches = sql<boolean>`${next} >= ${Limits.loginMaxFailures}`;
  const row = await db
    .updateTable('account')
    .set({
      FailedCount: sql<number>`CASE WHEN ${reaches} THEN 0 ELSE ${next} END`,
      LockedUntil: sql<number | null>`CASE WHEN ${reaches} THEN ${now + LOCK_MS} ELSE ${sql.ref('LockedUntil')} END`,
    })
    .where('A_ID', '=', accountId)
    .returning(['FailedCount'])
    .executeTakeFirstOrThrow();
  const failures = Number(row.FailedCount);
  return failures === 0 ? { failures: Limits.loginMaxFailures, locked: true } : { failures, locked: false };
}

const unknownNames = new WeakMap<AppDeps, LoginThrottle>();

/**
 * Wrong passwords of names no account has (unknown company code or login name) are counted and
 * locked as a known account's are, so the lock never tells which names exist: in memory (bounded,
 * oldest unlocked entries go first) or, with REDIS_URL, in Redis with INCR, shared by every instance.
 */
export function unknownNameThrottle(deps: AppDeps): LoginThrottle {
  let throttle = unknownNames.get(deps);
  if (!throttle) {
    throttle = deps.realtime.loginThrottle(
      { maxFailures: Limits.loginMaxFailures, lockMs: LOCK_MS },
      { warn: () => undefined, info: () => undefined },
      'console-login',
    );
    unknownNames.set(deps, throttle);
  }
  return throttle;
}
