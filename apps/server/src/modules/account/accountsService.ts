import { MessageKeys, SysLogActions, type AccountSave, type ConsoleAccountRow, type Profile } from '@intercom/contract';
import { hashPassword } from '../../auth/passwords.js';
import { endSessions } from '../../auth/sessions.js';
import type { DB } from '../../db/schema.js';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import type { Kysely } from 'kysely';
import { lockEnterprise } from '../enterprise/index.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import {
  deleteAccount,
  findAccount,
  insertAccount,
  loginTaken,
  otherActiveAdmins,
  updateAccount,
} from './accountsRepository.js';

const isActiveAdmin = (a: ConsoleAccountRow) => a.Role === 'admin' && a.Disabled === 0;

/** Inside the transaction, with the enterprise locked: an enterprise keeps at least one active admin. */
async function keepAnAdmin(trx: Kysely<DB>, account: ConsoleAccountRow): Promise<void> {
  await lockEnterprise(trx, account.E_ID);
  if (isActiveAdmin(account) && (await otherActiveAdmins(trx, account.E_ID, account.A_ID)) === 0) {
    throw AppError.conflict(MessageKeys.lastAdmin);
  }
}

async function found(ctx: ServiceContext, id: number): Promise<ConsoleAccountRow> {
  const account = await findAccount(ctx.db, ctx.scope, id);
  if (!account) throw AppError.notFound();
  return account;
}

/** `POST /api/Account/Save` (admin): create (A_ID 0) or edit a console account. */
export async function saveAccount(ctx: ServiceContext, input: AccountSave): Promise<ConsoleAccountRow> {
  const id = input.A_ID === 0 ? await createAccount(ctx, input) : await editAccount(ctx, input);
  return found(ctx, id);
}

async function createAccount(ctx: ServiceContext, input: AccountSave): Promise<number> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const LoginName = input.LoginName as string;
  if (await loginTaken(ctx.db, E_ID, LoginName)) throw AppError.conflict(MessageKeys.loginExists);
  const row = {
    E_ID,
    LoginName,
    Name: input.Name ?? '',
    Mail: input.Mail ?? '',
    Role: input.Role ?? 'editor',
    Disabled: 0,
    FailedCount: 0,
    LockedUntil: null,
    CreatedAt: ctx.clock.now(),
  };
  const PasswordHash = await hashPassword(input.Password as string, ctx.passwordLogN);
  return withUniqueConflict(MessageKeys.loginExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await insertAccount(trx, { ...row, PasswordHash });
      await logChange(trx, ctx, {
        E_ID,
        Action: SysLogActions.accountCreate,
        Target: LoginName,
        Summary: { A_ID: id, Name: row.Name, Mail: row.Mail, Role: row.Role },
      });
      return id;
    }),
  );
}

async function editAccount(ctx: ServiceContext, input: AccountSave): Promise<number> {
  const before = await found(ctx, input.A_ID);
  if (input.E_ID !== undefined && input.E_ID !== before.E_ID) throw AppError.field('E_ID', MessageKeys.invalid);
  const demoted = input.Role !== undefined && input.Role !== before.Role && before.Role === 'admin';
  if (demoted && before.A_ID === ctx.account.A_ID) throw AppError.field('Role', MessageKeys.notOnSelf);
  if (input.LoginName !== undefined && input.LoginName !== before.LoginName) {
    if (await loginTaken(ctx.db, before.E_ID, input.LoginName, before.A_ID))
      throw AppError.conflict(MessageKeys.loginExists);
  }
  const values = {
    LoginName: input.LoginName,
    Name: input.Name,
    Mail: input.Mail,
    Role: input.Role,
  };
  const changes = changesOf(before, values);
  const set: Record<string, unknown> = Object.fromEntries(Object.entries(values).filter(([field]) => field in changes));
  if (input.Password !== undefined) {
    set.PasswordHash = await hashPassword(input.Password, ctx.passwordLogN);
    changes.Password = 'reset';
  }
  const ended = await withUniqueConflict(MessageKeys.loginExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      if (demoted) await keepAnAdmin(trx, before);
      await updateAccount(trx, before.A_ID, set);
      const sessionIds = input.Password !== undefined ? await endSessions(trx, before.A_ID, 'password') : [];
      await logChange(trx, ctx, {
        E_ID: before.E_ID,
        Action: SysLogActions.accountUpdate,
        Target: before.LoginName,
        Summary: changes,
      });
      return sessionIds;
    }),
  );
  // A new password ends the account's console sessions and the dispatcher seats they carry, everywhere now.
  ctx.events.sessionsEnded(before.E_ID, ended, 'password');
  return before.A_ID;
}

/** `DELETE /api/Account/Delete/{id}` (admin): not the own account, not the last active admin. */
export async function removeAccount(ctx: ServiceContext, id: number): Promise<void> {
  const account = await found(ctx, id);
  if (account.A_ID === ctx.account.A_ID) throw AppError.field('A_ID', MessageKeys.notOnSelf);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await keepAnAdmin(trx, account);
    const sessionIds = await endSessions(trx, id, 'deleted');
    await deleteAccount(trx, id);
    await logChange(trx, ctx, {
      E_ID: account.E_ID,
      Action: SysLogActions.accountDelete,
      Target: account.LoginName,
      Summary: { A_ID: id, Role: account.Role },
    });
    return sessionIds;
  });
  // Its console sessions (rows deleted with it) and their hub connections and seats close on every instance now.
  ctx.events.sessionsEnded(account.E_ID, ended, 'deleted');
}

/** `POST /api/Account/Disable` (admin): disabling ends every session of the account. */
export async function disableAccount(ctx: ServiceContext, id: number, disabled: boolean): Promise<ConsoleAccountRow> {
  const account = await found(ctx, id);
  if (disabled && account.A_ID === ctx.account.A_ID) throw AppError.field('A_ID', MessageKeys.notOnSelf);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    if (disabled) await keepAnAdmin(trx, account);
    await updateAccount(trx, id, { Disabled: disabled ? 1 : 0 });
    const sessionIds = disabled ? await endSessions(trx, id, 'frozen') : [];
    await logChange(trx, ctx, {
      E_ID: account.E_ID,
      Action: disabled ? SysLogActions.accountDisable : SysLogActions.accountEnable,
      Target: account.LoginName,
      Summary: { Disabled: [account.Disabled, disabled ? 1 : 0] },
    });
    return sessionIds;
  });
  ctx.events.sessionsEnded(account.E_ID, ended, 'frozen');
  return { ...account, Disabled: disabled ? 1 : 0 };
}

/** `POST /api/Account/ResetPassword` (admin): new password, lock cleared, sessions ended. */
export async function resetPassword(ctx: ServiceContext, id: number, password: string): Promise<void> {
  const account = await found(ctx, id);
  const PasswordHash = await hashPassword(password, ctx.passwordLogN);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await updateAccount(trx, id, { PasswordHash, FailedCount: 0, LockedUntil: null });
    const sessionIds = await endSessions(trx, id, 'password');
    await logChange(trx, ctx, {
      E_ID: account.E_ID,
      Action: SysLogActions.accountResetPassword,
      Target: account.LoginName,
    });
    return sessionIds;
  });
  ctx.events.sessionsEnded(account.E_ID, ended, 'password');
}

export async function profileOf(ctx: ServiceContext): Promise<Profile> {
  return ctx.db
    .selectFrom('account')
    .select(['A_ID', 'E_ID', 'LoginName', 'Name', 'Mail', 'Role'])
    .where('A_ID', '=', ctx.account.A_ID)
    .executeTakeFirstOrThrow();
}

/** `POST /api/Account/SaveProfile` (any role): the own name and mail. */
export async function saveProfile(ctx: ServiceContext, input: { Name: string; Mail: string }): Promise<Profile> {
  const before = await profileOf(ctx);
  const changes = changesOf(before, input);
  await ctx.db.transaction().execute(async (trx) => {
    await updateAccount(trx, before.A_ID, { Name: input.Name, Mail: input.Mail });
    await logChange(trx, ctx, {
      E_ID: before.E_ID,
      Action: SysLogActions.profileUpdate,
      Target: before.LoginName,
      Summary: changes,
    });
  });
  return { ...before, ...input };
}
