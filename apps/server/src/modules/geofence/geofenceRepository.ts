import type { GeofenceRow } from '@intercom/contract';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, GeofenceTable } from '../../db/schema.js';
import { insertReturningId, updateById } from '../../db/byId.js';
import { zoneFieldsOf } from '../../core/zoneColumns.js';
import type { Targets } from '../userinfo/index.js';
import type { Scope } from '../../tenancy/scope.js';

export type GeofenceRecord = Selectable<GeofenceTable>;
export type GeofenceValues = Omit<Insertable<GeofenceTable>, 'GF_ID'>;
export const TargetKinds = { user: 'user', department: 'department' } as const;

/** A fence's users and departments (none of either: the whole enterprise). */
export type FenceTargets = Targets;

/** Fences `ids` of the scope (fewer when some are outside it). */
export async function findGeofences(db: Kysely<DB>, scope: Scope, ids: readonly number[]): Promise<GeofenceRecord[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('geofence')
    .selectAll()
    .where('GF_ID', 'in', [...ids])
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .orderBy('GF_ID')
    .execute();
}

/** Every fence of one enterprise (the index of the per-fix check). */
export function geofencesOf(db: Kysely<DB>, E_ID: number): Promise<GeofenceRecord[]> {
  return db.selectFrom('geofence').selectAll().where('E_ID', '=', E_ID).execute();
}

/** The users and departments of fences `ids`, by fence; a fence with neither is absent. */
export async function targetsOf(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, FenceTargets>> {
  const out = new Map<number, FenceTargets>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('geofence_target')
    .select(['GF_ID', 'TargetKind', 'TargetID'])
    .where('GF_ID', 'in', [...ids])
    .orderBy('TargetID')
    .execute();
  for (const row of rows) {
    let targets = out.get(row.GF_ID);
    if (!targets) out.set(row.GF_ID, (targets = { UserIds: [], DepartmentIds: [] }));
    (row.TargetKind === TargetKinds.user ? targets.UserIds : targets.DepartmentIds).push(row.TargetID);
  }
  return out;
}

/** Targets of every fence of one enterprise. */
export async function targetsOfEnterprise(db: Kysely<DB>, E_ID: number): Promise<Map<number, FenceTargets>> {
  const ids = await db.selectFrom('geofence_target').select('GF_ID').distinct().where('E_ID', '=', E_ID).execute();
  return targetsOf(
    db,
    ids.map((r) => r.GF_ID),
  );
}

export function insertGeofence(db: Kysely<DB>, values: GeofenceValues): Promise<number> {
  return insertReturningId(db, 'geofence', 'GF_ID', values);
}

export function updateGeofence(db: Kysely<DB>, GF_ID: number, values: Partial<GeofenceValues>): Promise<void> {
  return updateById(db, 'geofence', 'GF_ID', GF_ID, values);
}

export async function replaceTargets(
  db: Kysely<DB>,
  GF_ID: number,
  E_ID: number,
  targets: FenceTargets,
): Promise<void> {
  await db.deleteFrom('geofence_target').where('GF_ID', '=', GF_ID).execute();
  const rows = [
    ...targets.UserIds.map((TargetID) => ({ GF_ID, E_ID, TargetKind: TargetKinds.user, TargetID })),
    ...targets.DepartmentIds.map((TargetID) => ({ GF_ID, E_ID, TargetKind: TargetKinds.department, TargetID })),
  ];
  if (rows.length > 0) await db.insertInto('geofence_target').values(rows).execute();
}

/** Deletes fences with their targets and the users' inside states. */
export async function deleteGeofences(db: Kysely<DB>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('geofence_state')
    .where('GF_ID', 'in', [...ids])
    .execute();
  await db
    .deleteFrom('geofence_target')
    .where('GF_ID', 'in', [...ids])
    .execute();
  await db
    .deleteFrom('geofence')
    .where('GF_ID', 'in', [...ids])
    .execute();
}

/** A stored fence in the shape QueryData lists it. */
export function toGeofenceRow(record: GeofenceRecord, targets: FenceTargets | undefined): GeofenceRow {
  return {
    GF_ID: record.GF_ID,
    E_ID: record.E_ID,
    Name: record.Name,
    Kind: record.Kind,
    ...zoneFieldsOf(record),
    Enter: record.Enter !== 0,
    Exit: record.Exit !== 0,
    DwellMinutes: record.DwellMinutes,
    UserIds: targets?.UserIds ?? [],
    DepartmentIds: targets?.DepartmentIds ?? [],
    CreatedAt: Number(record.CreatedAt),
    UpdatedAt: Number(record.UpdatedAt),
  };
}
