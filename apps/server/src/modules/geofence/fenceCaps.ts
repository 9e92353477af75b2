import { MessageKeys } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { organsOf, subtreeIds } from '../organ/index.js';
import { targetsOfEnterprise, type FenceTargets } from './geofenceRepository.js';

/** GEOFENCE_MAX_PER_ENTERPRISE and GEOFENCE_MAX_PER_USER (docs/safety.md "Limits"). */
export interface GeofenceCaps {
  maxPerEnterprise: number;
  maxPerUser: number;
}

/** The fence being saved: its enterprise, its id (absent: a new one), its targets now and before. */
export interface FenceCapInput {
  E_ID: number;
  GF_ID?: number;
  targets: FenceTargets;
  before?: FenceTargets;
}

const isWide = (t: FenceTargets) => t.UserIds.length === 0 && t.DepartmentIds.length === 0;

/** Id the new fence takes in the counts: stored ids start at 1. */
const NEW_FENCE = 0;

/**
 * Refuses a Save (4009, nothing written) that would give the enterprise more than `maxPerEnterprise`
 * fences, or put a user in more than `maxPerUser` fences that apply to them (those naming the user,
 * their department or a parent of it, and those of the whole enterprise). Every fence applying to a
 * user is checked at each of its fixes, so this bounds a fix's work and its alarms. Only users the
 * fence starts to apply to are counted: an edit that adds nobody is never refused, even when a
 * lowered setting leaves someone above it. Run it in the saving transaction with the enterprise
 * locked, so two Saves cannot both take the last place.
 */
export async function assertFenceCaps(db: Kysely<DB>, save: FenceCapInput, caps: GeofenceCaps): Promise<void> {
  const { E_ID, targets, before } = save;
  const ids = (await db.selectFrom('geofence').select('GF_ID').where('E_ID', '=', E_ID).execute()).map((r) => r.GF_ID);
  if (save.GF_ID === undefined && ids.length + 1 > caps.maxPerEnterprise) {
    throw AppError.conflict(MessageKeys.geofenceTooMany, { max: caps.maxPerEnterprise });
  }
  const stored = await targetsOfEnterprise(db, E_ID);
  const organs = await organsOf(db, E_ID);
  const covered = (t: FenceTargets) => new Set(t.DepartmentIds.flatMap((id) => subtreeIds(organs, id)));

  // Every fence as it stands after the Save: those of the whole enterprise counted, the others by target.
  let wide = 0;
  const byDepartment = new Map<number, Set<number>>();
  const byUser = new Map<number, Set<number>>();
  const add = (map: Map<number, Set<number>>, key: number, fence: number) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(fence);
  };
  const count = (fence: number, t: FenceTargets | undefined) => {
    if (!t || isWide(t)) return void (wide += 1);
    for (const department of covered(t)) add(byDepartment, department, fence);
    for (const user of t.UserIds) add(byUser, user, fence);
  };
  for (const id of ids) if (id !== save.GF_ID) count(id, stored.get(id));
  count(save.GF_ID ?? NEW_FENCE, targets);

  const newlyWide = isWide(targets) && !(before && isWide(before));
  if (newlyWide && wide > caps.maxPerUser) {
    throw AppError.conflict(MessageKeys.geofenceTooManyForEveryone, { max: caps.maxPerUser });
  }
  /** Fences applying to a user of `department` (null: none) named by `own` (null: a user no fence names). */
  const fencesOf = (department: number | null, own: ReadonlySet<number> | undefined) => {
    const ofDepartment = department === null ? undefined : byDepartment.get(department);
    let n = wide + (ofDepartment?.size ?? 0);
    if (own) for (const fence of own) if (!ofDepartment?.has(fence)) n += 1;
    return n;
  };
  const nowCovered = covered(targets);
  const beforeCovered = before ? covered(before) : new Set<number>();
  const appliesNow = (user: number | null, department: number | null) =>
    isWide(targets) ||
    (user !== null && targets.UserIds.includes(user)) ||
    (department !== null && nowCovered.has(department));
  const appliedBefore = (user: number | null, department: number | null) =>
    before !== undefined &&
    (isWide(before) ||
      (user !== null && before.UserIds.includes(user)) ||
      (department !== null && beforeCovered.has(department)));
  const newlyApplies = (user: number | null, department: number | null) =>
    appliesNow(user, department) && !appliedBefore(user, department);
  const refuse = (name: string) =>
    AppError.conflict(MessageKeys.geofenceTooManyForUser, { max: caps.maxPerUser, name });

  // Users some fence names, each counted exactly.
  const named = [...byUser.keys()];
  for (let i = 0; i < named.length; i += 500) {
    const users = await db
      .selectFrom('terminal_user')
      .select(['UserID', 'OS_ID', 'UserName'])
      .where('E_ID', '=', E_ID)
      .where('UserID', 'in', named.slice(i, i + 500))
      .execute();
    for (const user of users) {
      if (!newlyApplies(user.UserID, user.OS_ID)) continue;
      if (fencesOf(user.OS_ID, byUser.get(user.UserID)) > caps.maxPerUser) throw refuse(user.UserName);
    }
  }
  // Every other user of a department counts as that department's fences (and those of its parents).
  const departments = await db
    .selectFrom('terminal_user')
    .select('OS_ID')
    .distinct()
    .where('E_ID', '=', E_ID)
    .where('OS_ID', 'is not', null)
    .execute();
  for (const { OS_ID } of departments) {
    if (OS_ID === null || !newlyApplies(null, OS_ID) || fencesOf(OS_ID, undefined) <= caps.maxPerUser) continue;
    const user = await db
      .selectFrom('terminal_user')
      .select('UserName')
      .where('E_ID', '=', E_ID)
      .where('OS_ID', '=', OS_ID)
      .orderBy('UserID')
      .executeTakeFirst();
    if (user) throw refuse(user.UserName);
  }
}
