import { Code, Limits, MessageKeys, SysLogActions, normaliseLoginName, type LoginForm } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import type { AppDeps } from '../../appDeps.js';
import { checkLoginClock, consumeNonce, openLoginEnvelope } from '../../auth/loginCrypto.js';
import { verifyPassword } from '../../auth/passwords.js';
import { openSession, type IssuedTokens } from '../../auth/sessions.js';
import { announceSessionsEnded } from '../../realtime/sessionEvents.js';
import { writeSysLog } from '../../core/writeSysLog.js';

const wrongCredentials = () => new AppError(Code.Forbidden, MessageKeys.loginWrongCredentials);

function minutesLeft(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 60_000));
}

/**
 * Login of DESIGN.md section 4: open the envelope, check clock and replay, then the account
 * (lock after 5 consecutive failures for 15 minutes), then open a session that replaces any other.
 */
export async function login(
  deps: AppDeps,
  form: LoginForm,
  meta: { ip: string },
  now = Date.now(),
): Promise<{ tokens: IssuedTokens; replaced: number[] }> {
  const { db } = deps;
  const payload = openLoginEnvelope(deps.loginKey, form.appSecret, form.data);
  checkLoginClock(payload, now);
  await consumeNonce(db, form.appSecret, form.data, now);

  const username = normaliseLoginName(payload.username);
  const code = normaliseLoginName(payload.code || form.companyId || '');
  // No account or code can contain NUL (PostgreSQL text cannot hold it, and pg would throw).
  if (!username || !code || !payload.password || `${username}${code}`.includes('\u0000')) throw wrongCredentials();

  const enterprise = await db
    .selectFrom('enterprise')
    .select(['E_ID', 'Disabled', 'ExpireAt'])
    .where('E_Code', '=', code)
    .executeTakeFirst();
  if (!enterprise) throw wrongCredentials();
  const account = await db
    .selectFrom('account')
    .selectAll()
    .where('E_ID', '=', enterprise.E_ID)
    .where('LoginName', '=', username)
    .executeTakeFirst();
  // Every failed login of a known enterprise leaves a row its admins can read (DESIGN.md section 5).
  const failed = (reason: string, extra: Record<string, unknown> = {}) =>
    writeSysLog(
      db,
      {
        E_ID: enterprise.E_ID,
        A_ID: account?.A_ID ?? null,
        Operator: account?.LoginName ?? username,
        IP: meta.ip,
        Action: SysLogActions.loginFailed,
        Summary: { reason, ...extra },
      },
      now,
    );
  if (!account) {
    await failed('unknown_account');
    throw wrongCredentials();
  }

  const log = { E_ID: account.E_ID, A_ID: account.A_ID, Operator: account.LoginName, IP: meta.ip };
  if (account.LockedUntil !== null && account.LockedUntil > now) {
    await failed('locked');
    throw new AppError(Code.TooMany, MessageKeys.loginLocked, { minutes: minutesLeft(account.LockedUntil, now) });
  }
  if (!(await verifyPassword(payload.password, account.PasswordHash))) {
    const failures = account.FailedCount + 1;
    const locks = failures >= Limits.loginMaxFailures;
    const lockedUntil = locks ? now + Limits.loginLockMinutes * 60_000 : null;
    await db
      .updateTable('account')
      .set({ FailedCount: locks ? 0 : failures, LockedUntil: lockedUntil })
      .where('A_ID', '=', account.A_ID)
      .execute();
    await failed('wrong_password', { failures, locked: locks });
    if (lockedUntil !== null) {
      throw new AppError(Code.TooMany, MessageKeys.loginLocked, { minutes: Limits.loginLockMinutes });
    }
    throw wrongCredentials();
  }
  if (account.Disabled) {
    await failed('disabled');
    throw new AppError(Code.Forbidden, MessageKeys.loginDisabled);
  }
  if (enterprise.Disabled || (enterprise.ExpireAt !== null && enterprise.ExpireAt < now)) {
    await failed('enterprise_expired');
    throw new AppError(Code.Forbidden, MessageKeys.loginEnterpriseExpired);
  }
  if (account.FailedCount !== 0 || account.LockedUntil !== null) {
    await db
      .updateTable('account')
      .set({ FailedCount: 0, LockedUntil: null })
      .where('A_ID', '=', account.A_ID)
      .execute();
  }
  const result = await openSession(
    db,
    { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs },
    account,
    { clientId: form.appId, ip: meta.ip },
    now,
  );
  announceSessionsEnded(deps, account.E_ID, result.replaced, 'replaced');
  await writeSysLog(db, { ...log, Action: SysLogActions.login, Summary: { client: form.appId } }, now);
  return result;
}
