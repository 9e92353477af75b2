import {
  MessageKeys,
  SYS_CONFIG_DEFAULTS,
  SysLogActions,
  checkChangePassword,
  sysConfigValueSchemas,
  type SysConfigCode,
} from '@intercom/contract';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../appDeps.js';
import type { AuthContext } from '../../auth/authContext.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { endSessions } from '../../auth/sessions.js';
import { announceSessionsEnded } from '../../bus/sessionEvents.js';
import { AppError } from '../../http/AppError.js';
import { actorOf, writeSysLog } from '../../core/writeSysLog.js';
import { getSysConfigValue, setSysConfigValue } from '../../core/sysConfigRepository.js';

/** SPEC.md section 5 change-password rules; success ends every session of the account (1001). */
export async function changePassword(
  deps: AppDeps,
  request: FastifyRequest,
  auth: AuthContext,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const errors = checkChangePassword({ oldPassword, newPassword, confirmPassword: newPassword });
  if (errors.length > 0) throw AppError.validation(errors);
  const account = await deps.db
    .selectFrom('account')
    .select(['PasswordHash'])
    .where('A_ID', '=', auth.account.A_ID)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(oldPassword, account.PasswordHash))) {
    throw AppError.field('LPsd', MessageKeys.oldPasswordWrong);
  }
  if (oldPassword === newPassword) throw AppError.field('Psd', MessageKeys.samePassword);
  const hash = await hashPassword(newPassword, deps.passwordLogN);
  const ended = await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('account').set({ PasswordHash: hash }).where('A_ID', '=', auth.account.A_ID).execute();
    const sessionIds = await endSessions(trx, auth.account.A_ID, 'password');
    await writeSysLog(trx, {
      ...actorOf(request),
      Action: SysLogActions.changePassword,
      Target: auth.account.LoginName,
    });
    return sessionIds;
  });
  announceSessionsEnded(deps, auth.account.E_ID, ended, 'password');
}

function isKnownCode(code: string): code is SysConfigCode {
  return Object.hasOwn(sysConfigValueSchemas, code);
}

/** ModifyConfig: a known code and a value its validator accepts, else 4000 and nothing changes. */
export async function modifyConfig(
  deps: AppDeps,
  request: FastifyRequest,
  auth: AuthContext,
  code: string,
  value: string,
): Promise<void> {
  if (!isKnownCode(code)) throw AppError.field('scCode', MessageKeys.unknownConfig);
  const parsed = sysConfigValueSchemas[code].safeParse(value);
  if (!parsed.success) throw AppError.field('scValue', MessageKeys.badConfigValue);
  const before = (await getSysConfigValue(deps.db, auth.scope, code)) ?? SYS_CONFIG_DEFAULTS[code];
  await deps.db.transaction().execute(async (trx) => {
    await setSysConfigValue(trx, auth.scope, code, value);
    await writeSysLog(trx, {
      ...actorOf(request),
      Action: SysLogActions.modifyConfig,
      Target: code,
      Summary: { before, after: value },
    });
  });
}
