import { GeofenceLogActions, MessageKeys, type GeofenceRow, type GeofenceSave } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import { zoneColumnsOf } from '../../core/zoneColumns.js';
import { lockEnterprise } from '../enterprise/index.js';
import { checkTargets } from '../userinfo/index.js';
import {
  deleteGeofences,
  findGeofences,
  insertGeofence,
  replaceTargets,
  targetsOf,
  toGeofenceRow,
  updateGeofence,
  type FenceTargets,
  type GeofenceValues,
} from './geofenceRepository.js';
import { assertFenceCaps, type GeofenceCaps } from './fenceCaps.js';

function valuesOf(input: GeofenceSave, E_ID: number, now: number): GeofenceValues {
  return {
    E_ID,
    Name: input.Name,
    ...zoneColumnsOf(input),
    Enter: input.Enter ? 1 : 0,
    Exit: input.Exit ? 1 : 0,
    DwellMinutes: input.DwellMinutes ?? 0,
    CreatedAt: now,
    UpdatedAt: now,
  };
}

/**
 * `POST /api/Geofence/Save`: creates (GF_ID absent or 0) or replaces a fence, its users and its
 * departments, with a system-log row; then every instance's per-fix check reads the enterprise's
 * fences again. Nothing is written unless every check passed, the caps (fenceCaps.ts) last, in the
 * writing transaction with the enterprise locked. `now` (AppDeps.clock) stamps the row.
 */
export async function saveGeofence(
  ctx: ServiceContext,
  input: GeofenceSave,
  caps: GeofenceCaps,
  now: number,
): Promise<{ GF_ID: number }> {
  const targets: FenceTargets = { UserIds: input.UserIds ?? [], DepartmentIds: input.DepartmentIds ?? [] };
  if (!input.GF_ID) {
    const E_ID = input.E_ID ?? ctx.scope.rootId;
    if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
    await checkTargets(ctx, E_ID, targets);
    const values = valuesOf(input, E_ID, now);
    const GF_ID = await ctx.db.transaction().execute(async (trx) => {
      await lockEnterprise(trx, E_ID);
      await assertFenceCaps(trx, { E_ID, targets }, caps);
      const id = await insertGeofence(trx, values);
      await replaceTargets(trx, id, E_ID, targets);
      await logChange(trx, ctx, {
        E_ID,
        Action: GeofenceLogActions.create,
        Target: input.Name,
        Summary: { GF_ID: id, Kind: input.Kind, ...targets },
      });
      return id;
    });
    ctx.events.notify('geofencesChanged', { E_ID });
    return { GF_ID };
  }
  const [before] = await findGeofences(ctx.db, ctx.scope, [input.GF_ID]);
  if (!before) throw AppError.notFound();
  if (input.E_ID !== undefined && input.E_ID !== before.E_ID) throw AppError.field('E_ID', MessageKeys.invalid);
  await checkTargets(ctx, before.E_ID, targets);
  const { CreatedAt: _created, ...values } = valuesOf(input, before.E_ID, now);
  const previous = toGeofenceRow(before, (await targetsOf(ctx.db, [before.GF_ID])).get(before.GF_ID));
  await ctx.db.transaction().execute(async (trx) => {
    await lockEnterprise(trx, before.E_ID);
    const old = { UserIds: previous.UserIds, DepartmentIds: previous.DepartmentIds };
    await assertFenceCaps(trx, { E_ID: before.E_ID, GF_ID: before.GF_ID, targets, before: old }, caps);
    await updateGeofence(trx, before.GF_ID, values);
    await replaceTargets(trx, before.GF_ID, before.E_ID, targets);
    await logChange(trx, ctx, {
      E_ID: before.E_ID,
      Action: GeofenceLogActions.update,
      Target: before.Name,
      Summary: changesOf(summaryOf(previous), summaryOf(toGeofenceRow({ ...before, ...values }, targets))),
    });
  });
  ctx.events.notify('geofencesChanged', { E_ID: before.E_ID });
  return { GF_ID: before.GF_ID };
}

/** What a log row compares: the shape and the lists as JSON text, so an unchanged list is no change. */
function summaryOf(row: GeofenceRow): Record<string, unknown> {
  const text = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return {
    Name: row.Name,
    Kind: row.Kind,
    Center: text(row.Center),
    Radius: row.Radius,
    Points: text(row.Points),
    Enter: row.Enter,
    Exit: row.Exit,
    DwellMinutes: row.DwellMinutes,
    UserIds: text(row.UserIds),
    DepartmentIds: text(row.DepartmentIds),
  };
}

/**
 * `POST /api/Geofence/Delete`: every id must be a fence of the scope, else 4004 and nothing is
 * deleted. One system-log row per fence; users inside them are forgotten without an alarm.
 */
export async function removeGeofences(ctx: ServiceContext, ids: readonly number[]): Promise<void> {
  const found = await findGeofences(ctx.db, ctx.scope, ids);
  if (found.length < ids.length) throw AppError.notFound();
  await ctx.db.transaction().execute(async (trx) => {
    await deleteGeofences(
      trx,
      found.map((f) => f.GF_ID),
    );
    for (const fence of found) {
      await logChange(trx, ctx, {
        E_ID: fence.E_ID,
        Action: GeofenceLogActions.delete,
        Target: fence.Name,
        Summary: { GF_ID: fence.GF_ID, Kind: fence.Kind },
      });
    }
  });
  for (const E_ID of new Set(found.map((f) => f.E_ID))) ctx.events.notify('geofencesChanged', { E_ID });
}
