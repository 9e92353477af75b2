import {
  GeofenceKinds,
  GeofenceLogActions,
  MessageKeys,
  type GeofenceRow,
  type GeofenceSave,
} from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import { findOrgan, organsOf } from '../organ/index.js';
import { findUsers } from '../userinfo/index.js';
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

/**
 * Users and departments must be of the fence's enterprise. One outside the caller's scope is 4004,
 * as if it did not exist; one of another enterprise in the scope (a sub-enterprise) is a 4000.
 */
async function checkTargets(ctx: ServiceContext, E_ID: number, targets: FenceTargets): Promise<void> {
  const users = await findUsers(ctx.db, ctx.scope, targets.UserIds);
  if (users.length < targets.UserIds.length) throw AppError.notFound();
  if (users.some((u) => u.E_ID !== E_ID)) throw AppError.field('UserIds', MessageKeys.channelMemberEnterprise);
  if (targets.DepartmentIds.length === 0) return;
  const own = new Set((await organsOf(ctx.db, E_ID)).map((o) => o.OSID));
  for (const id of targets.DepartmentIds) {
    if (own.has(id)) continue;
    if (await findOrgan(ctx.db, ctx.scope, id)) throw AppError.field('DepartmentIds', MessageKeys.departmentEnterprise);
    throw AppError.notFound();
  }
}

function valuesOf(input: GeofenceSave, E_ID: number, now: number): GeofenceValues {
  const circle = input.Kind === GeofenceKinds.circle;
  return {
    E_ID,
    Name: input.Name,
    Kind: input.Kind,
    CenterLat: circle ? (input.Center?.[0] ?? null) : null,
    CenterLon: circle ? (input.Center?.[1] ?? null) : null,
    Radius: circle ? (input.Radius ?? null) : null,
    Points: circle ? '' : JSON.stringify(input.Points ?? []),
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
 * fences again. Nothing is written unless every check passed.
 */
export async function saveGeofence(ctx: ServiceContext, input: GeofenceSave): Promise<{ GF_ID: number }> {
  const targets: FenceTargets = { UserIds: input.UserIds ?? [], DepartmentIds: input.DepartmentIds ?? [] };
  const now = Date.now();
  if (!input.GF_ID) {
    const E_ID = input.E_ID ?? ctx.scope.rootId;
    if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
    await checkTargets(ctx, E_ID, targets);
    const values = valuesOf(input, E_ID, now);
    const GF_ID = await ctx.db.transaction().execute(async (trx) => {
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
