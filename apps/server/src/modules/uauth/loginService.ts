import { Code, Limits, MessageKeys, SysLogActions, normaliseLoginName, type LoginForm } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import type { AppDeps } from '../../appDeps.js';
import { checkLoginClock, consumeNonce, openLoginEnvelope } from '../../auth/loginCrypto.js';
import { verifyAgainstDummy, verifyPassword } from '../../auth/passwords.js';
import { openSession, type IssuedTokens } from '../../auth/sessions.js';
import { announceSessionsEnded } from '../../bus/sessionEvents.js';
import { writeSysLog } from '../../core/writeSysLog.js';
import { countAccountFailure, unknownNameThrottle } from './loginFailures.js';

const wrongCredentials = () => new AppError(Code.Forbidden, MessageKeys.loginWrongCredentials);
const locked = (minutes: number) => new AppError(Code.TooMany, MessageKeys.loginLocked, { minutes });

function minutesLeft(lockedMs: number): number {
  return Math.max(1, Math.ceil(lockedMs / 60_000));
}

type FailureLog = (reason: string, extra?: Record<string, unknown>) => Promise<void>;

/**
 * Login of DESIGN.md section 4: open the envelope, check clock and replay, then the account
 * (lock after 5 consecutive failures for 15 minutes), then open a session that replaces any other.
 * Unknown company codes and names cost the same scrypt check and lock the same way as known
 * accounts (issue 16), so neither the answer, its time nor the lock tells which accounts exist.
 */
export async function login(
  deps: AppDeps,
  form: LoginForm,
  meta: { ip: string },
  now = deps.clock.now(),
): Promise<{ tokens: IssuedTokens; replaced: number[] }> {
  const { db } = deps;
  const payload = openLoginEnvelope(deps.loginKey, form.appSecret, form.data);
  checkLoginClock(payload, now);
  await consumeNonce(db, form.appSecret, form.data, now);

  const username = normaliseLoginName(payload.username);
  const code = normaliseLoginName(payload.code || form.companyId || '');
  // No account or code can contain NUL (PostgreSQL text cannot hold it, and pg would throw).
  const valid = username && code && payload.password && !`${username}${code}`.includes('\u0000');
  const enterprise = valid
    ? await db
        .selectFrom('enterprise')
        .select(['E_ID', 'Disabled', 'ExpireAt'])
        .where('E_Code', '=', code)
        .executeTakeFirst()
    : undefined;
  const account = enterprise
    ? await db
        .selectFrom('account')
        .selectAll()
        .where('E_ID', '=', enterprise.E_ID)
        .where('LoginName', '=', username)
        .executeTakeFirst()
    : undefined;
  // Every failed login of a known enterprise leaves a row its admins can read (DESIGN.md section 5).
  const failed: FailureLog = async (reason, extra = {}) => {
    deps.metrics.loginFailures.inc({ kind: 'console', reason });
    if (!enterprise) return;
    const entry = { E_ID: enterprise.E_ID, A_ID: account?.A_ID ?? null, Operator: account?.LoginName ?? username };
    await writeSysLog(
      db,
      { ...entry, IP: meta.ip, Action: SysLogActions.loginFailed, Summary: { reason, ...extra } },
      now,
    );
  };
  if (!account || !enterprise)
    return refuseUnknownName(deps, `${code}\u0000${username}`, payload.password, failed, now);

  if (account.LockedUntil !== null && Number(account.LockedUntil) > now) {
    await failed('locked');
    throw locked(minutesLeft(Number(account.LockedUntil) - now));
  }
  if (!(await verifyPassword(payload.password, account.PasswordHash))) {
    const { failures, locked: locks } = await countAccountFailure(db, account.A_ID, now);
    await failed('wrong_password', { failures, locked: locks });
    throw locks ? locked(Limits.loginLockMinutes) : wrongCredentials();
  }
  if (account.Disabled) {
    await failed('disabled');
    throw new AppError(Code.Forbidden, MessageKeys.loginDisabled);
  }
  if (enterprise.Disabled || (enterprise.ExpireAt !== null && enterprise.ExpireAt < now)) {
    await failed('enterprise_expired');
    throw new AppError(Code.Forbidden, MessageKeys.loginEnterpriseExpired);
  }
  const policy = { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs };
  const result = await db.transaction().execute(async (trx) => {
    // The first statement takes the account's row lock (PostgreSQL) until commit, so simultaneous
    // logins of one account run one after the other: the later one ends the earlier one's session.
    await trx
      .updateTable('account')
      .set({ FailedCount: 0, LockedUntil: null })
      .where('A_ID', '=', account.A_ID)
      .execute();
    const opened = await openSession(trx, policy, account, { clientId: form.appId, ip: meta.ip }, now);
    const log = { E_ID: account.E_ID, A_ID: account.A_ID, Operator: account.LoginName, IP: meta.ip };
    await writeSysLog(trx, { ...log, Action: SysLogActions.login, Summary: { client: form.appId } }, now);
    return opened;
  });
  announceSessionsEnded(deps, account.E_ID, result.replaced, 'replaced');
  return result;
}

/** A name no account has: the same scrypt work and the same lock as a known account, then refused. */
async function refuseUnknownName(
  deps: AppDeps,
  name: string,
  password: string,
  failed: FailureLog,
  now: number,
): Promise<never> {
  const throttle = unknownNameThrottle(deps);
  const lockedMs = await throttle.lockedFor(name, now);
  if (lockedMs > 0) {
    await failed('locked');
    throw locked(minutesLeft(lockedMs));
  }
  await verifyAgainstDummy(password || ' ', deps.passwordLogN);
  await throttle.failed(name, now);
  await failed('unknown_account');
  if ((await throttle.lockedFor(name, now)) > 0) throw locked(Limits.loginLockMinutes);
  throw wrongCredentials();
}
