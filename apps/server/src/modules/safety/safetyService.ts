import { SafetyLogActions, type SafetySettings, type SafetySettingsSave } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { checkTargets, findUsers, type Targets } from '../userinfo/index.js';
import { deleteRule, enterpriseRules, findRules, upsertRules } from './safetyRepository.js';
import { resolveSafety, type SafetyTargetKind } from './safetyRules.js';

/**
 * `POST /api/Safety/Settings`: the same settings for each named user and department, or (neither)
 * for the whole enterprise, with one system-log row. Nothing is written unless every check passed.
 * Returns the enterprise, whose cached rules the caller drops. `now` (AppDeps.clock) stamps the rows.
 */
export async function saveSafetySettings(ctx: ServiceContext, input: SafetySettingsSave, now: number): Promise<number> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const targets: Targets = {
    UserIds: [...new Set(input.UserIds ?? [])],
    DepartmentIds: [...new Set(input.DepartmentIds ?? [])],
  };
  await checkTargets(ctx, E_ID, targets);
  const rows: { kind: SafetyTargetKind; id: number }[] = [
    ...targets.UserIds.map((id) => ({ kind: 'user' as const, id })),
    ...targets.DepartmentIds.map((id) => ({ kind: 'department' as const, id })),
  ];
  if (rows.length === 0) rows.push({ kind: 'enterprise', id: E_ID });
  const { CheckInMinutes, GraceMinutes, NoMovementMinutes, NoMovementMeters } = input;
  const values = { CheckInMinutes, GraceMinutes, NoMovementMinutes, NoMovementMeters };
  await ctx.db.transaction().execute(async (trx) => {
    await upsertRules(trx, E_ID, rows, values, now);
    const whole = rows[0]?.kind === 'enterprise';
    await logChange(trx, ctx, {
      E_ID,
      Action: SafetyLogActions.settings,
      Target: whole ? 'enterprise' : `${targets.UserIds.length} users, ${targets.DepartmentIds.length} departments`,
      Summary: { ...targets, ...values },
    });
  });
  return E_ID;
}

/** `GET /api/Safety/Settings?U_ID=`: the settings in force for a user of the scope (else 4004). */
export async function safetySettingsOf(ctx: ServiceContext, U_ID: number): Promise<SafetySettings> {
  const [user] = await findUsers(ctx.db, ctx.scope, [U_ID]);
  if (!user) throw AppError.notFound();
  return resolveSafety(await enterpriseRules(ctx.db, user.E_ID), { U_ID, OS_ID: user.OS_ID });
}

/** Parses `user:12` keys (the contract checked their form). */
function parseKeys(ids: readonly string[]): { kind: SafetyTargetKind; id: number }[] {
  const unique = [...new Set(ids)];
  return unique.map((key) => {
    const [kind, id] = key.split(':');
    return { kind: kind as SafetyTargetKind, id: Number(id) };
  });
}

/**
 * `POST /api/Safety/Delete` `{ ids }`: removes stored settings rows of the scope, each with a
 * system-log row; one key that is not a row of the scope (another enterprise's, or none) is 4004 and
 * removes nothing. Returns the enterprises whose cached rules the caller drops.
 */
export async function removeSafetySettings(ctx: ServiceContext, ids: readonly string[]): Promise<number[]> {
  const targets = parseKeys(ids);
  const found = await findRules(ctx.db, ctx.scope.enterpriseIds, targets);
  if (found.length < targets.length) throw AppError.notFound();
  await ctx.db.transaction().execute(async (trx) => {
    for (const row of found) {
      await deleteRule(trx, row.TargetKind, row.TargetID);
      await logChange(trx, ctx, {
        E_ID: row.E_ID,
        Action: SafetyLogActions.delete,
        Target: `${row.TargetKind} ${row.TargetID}`,
        Summary: { TargetKind: row.TargetKind, TargetID: row.TargetID },
      });
    }
  });
  return [...new Set(found.map((r) => r.E_ID))];
}
