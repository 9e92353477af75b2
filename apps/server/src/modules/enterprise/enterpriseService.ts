import {
  Code,
  MessageKeys,
  SysLogActions,
  type EnterpriseRow,
  type EnterpriseSave,
  type WorkingEnterprise,
} from '@intercom/contract';
import { endSessions } from '../../auth/sessions.js';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { inScope, loadScope } from '../../tenancy/scope.js';
import {
  accountIdsOf,
  briefsOf,
  codeTaken,
  countUsers,
  findEnterprise,
  insertEnterprise,
  setWorkingEnterprise,
  updateEnterprise,
} from './enterpriseRepository.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';

/**
 * Creates or edits a sub-enterprise. Only enterprises below the account's own can be saved: an
 * enterprise's quota and expiry are its parent's decision (4003 for the own enterprise).
 */
export async function saveEnterprise(ctx: ServiceContext, input: EnterpriseSave): Promise<EnterpriseRow> {
  if (input.E_ID === 0) return createEnterprise(ctx, input);
  const before = await findEnterprise(ctx.db, ctx.scope, input.E_ID);
  if (!before) throw AppError.notFound();
  if (before.E_ID === ctx.account.E_ID) throw new AppError(Code.Forbidden, MessageKeys.enterpriseOwnReadonly);
  if (input.P_ID !== undefined && input.P_ID !== before.P_ID) throw AppError.field('P_ID', MessageKeys.invalid);
  if (input.E_Code !== undefined && (await codeTaken(ctx.db, input.E_Code, before.E_ID))) {
    throw AppError.conflict(MessageKeys.enterpriseCodeExists);
  }
  if (input.Quota !== undefined) {
    const users = await countUsers(ctx.db, before.E_ID);
    if (input.Quota < users) throw AppError.conflict(MessageKeys.enterpriseQuotaBelowUsers, { users });
  }
  const values = {
    E_Code: input.E_Code,
    E_Name: input.E_Name,
    Quota: input.Quota,
    ExpireAt: input.ExpireAt,
    Disabled: input.Disabled === undefined ? undefined : Number(input.Disabled),
  };
  const changes = changesOf(before, values);
  const set = Object.fromEntries(Object.entries(values).filter(([field]) => field in changes));
  const ended = await withUniqueConflict(MessageKeys.enterpriseCodeExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateEnterprise(trx, before.E_ID, set);
      const sessionIds: number[] = [];
      if (values.Disabled === 1 && before.Disabled === 0) {
        for (const accountId of await accountIdsOf(trx, before.E_ID))
          sessionIds.push(...(await endSessions(trx, accountId, 'frozen')));
      }
      await logChange(trx, ctx, {
        E_ID: before.E_ID,
        Action: SysLogActions.enterpriseUpdate,
        Target: before.E_Code,
        Summary: changes,
      });
      return sessionIds;
    }),
  );
  ctx.events.sessionsEnded(before.E_ID, ended, 'frozen');
  return { ...before, ...set };
}

async function createEnterprise(ctx: ServiceContext, input: EnterpriseSave): Promise<EnterpriseRow> {
  const parentId = input.P_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, parentId)) throw AppError.notFound();
  const code = input.E_Code as string;
  if (await codeTaken(ctx.db, code)) throw AppError.conflict(MessageKeys.enterpriseCodeExists);
  const row: Omit<EnterpriseRow, 'E_ID'> = {
    E_Code: code,
    E_Name: input.E_Name as string,
    P_ID: parentId,
    A_ID: null,
    Quota: input.Quota ?? 0,
    ExpireAt: input.ExpireAt ?? null,
    Disabled: input.Disabled ? 1 : 0,
    CreatedAt: ctx.clock.now(),
  };
  const E_ID = await withUniqueConflict(MessageKeys.enterpriseCodeExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await insertEnterprise(trx, row);
      await logChange(trx, ctx, {
        E_ID: id,
        Action: SysLogActions.enterpriseCreate,
        Target: code,
        Summary: { E_Name: row.E_Name, P_ID: parentId, Quota: row.Quota, ExpireAt: row.ExpireAt },
      });
      return id;
    }),
  );
  return { E_ID, ...row };
}

/**
 * Makes `E_ID` the session's working enterprise: from the next request on, the scope's root is
 * that enterprise. It must lie inside the account's own scope (else 4004); the own enterprise
 * switches back.
 */
export async function switchWorking(ctx: ServiceContext, enterpriseId: number): Promise<WorkingEnterprise> {
  const own = await loadScope(ctx.db, ctx.account.E_ID);
  if (!inScope(own, enterpriseId)) throw AppError.notFound();
  const working = enterpriseId === ctx.account.E_ID ? null : enterpriseId;
  await ctx.db.transaction().execute(async (trx) => {
    await setWorkingEnterprise(trx, ctx.session.S_ID, working);
    await logChange(trx, ctx, {
      E_ID: enterpriseId,
      Action: SysLogActions.enterpriseSwitch,
      Target: String(enterpriseId),
      Summary: { from: ctx.scope.rootId, to: enterpriseId },
    });
  });
  // The session's dispatcher seat hears and calls within the new scope only, at once.
  ctx.events.seatsCheck(enterpriseId, [ctx.session.S_ID]);
  return workingInfo(ctx, enterpriseId);
}

/** The own and working enterprise and every enterprise the account may switch to. */
export async function workingInfo(ctx: ServiceContext, workingId = ctx.scope.rootId): Promise<WorkingEnterprise> {
  const own = await loadScope(ctx.db, ctx.account.E_ID);
  const choices = await briefsOf(ctx.db, own.enterpriseIds);
  const byId = new Map(choices.map((e) => [e.E_ID, e]));
  const ownBrief = byId.get(ctx.account.E_ID);
  if (!ownBrief) throw AppError.notFound();
  return { own: ownBrief, working: byId.get(workingId) ?? ownBrief, choices };
}
