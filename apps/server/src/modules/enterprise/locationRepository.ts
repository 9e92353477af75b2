import type { LocationProfileRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, LocationProfileTable } from '../../db/schema.js';
import { insertReturningId, updateById } from '../../db/byId.js';
import { valueTaken } from '../../db/valueTaken.js';
import type { Scope } from '../../tenancy/scope.js';

const ROW = ['SC_ID', 'E_ID', 'SCName', 'SCValue', 'IsCurrent'] as const;

/** The profiles of one enterprise as rows. */
function profilesOfEnterprise(db: Kysely<DB>, enterpriseId: number) {
  return db.selectFrom('location_profile').select(ROW).where('E_ID', '=', enterpriseId);
}

/** The profiles of one enterprise, current first then by name. */
export async function profilesOf(db: Kysely<DB>, enterpriseId: number): Promise<LocationProfileRow[]> {
  return profilesOfEnterprise(db, enterpriseId).orderBy('IsCurrent', 'desc').orderBy('SC_ID').execute();
}

/** One profile of the scope, or undefined (outside the scope is absent). */
export async function findProfile(db: Kysely<DB>, scope: Scope, id: number): Promise<LocationProfileRow | undefined> {
  return db
    .selectFrom('location_profile')
    .select(ROW)
    .where('SC_ID', '=', id)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
}

export async function currentProfile(db: Kysely<DB>, enterpriseId: number): Promise<LocationProfileRow | undefined> {
  return profilesOfEnterprise(db, enterpriseId).where('IsCurrent', '=', 1).executeTakeFirst();
}

export function profileNameTaken(db: Kysely<DB>, enterpriseId: number, name: string, exceptId = 0) {
  return valueTaken(db, 'location_profile', { id: 'SC_ID', unique: 'SCName' }, enterpriseId, name, exceptId);
}

export async function countProfiles(db: Kysely<DB>, enterpriseId: number): Promise<number> {
  const row = await db
    .selectFrom('location_profile')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', enterpriseId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertProfile(db: Kysely<DB>, values: Insertable<LocationProfileTable>): Promise<number> {
  return insertReturningId(db, 'location_profile', 'SC_ID', values);
}

export function updateProfile(db: Kysely<DB>, id: number, values: Updateable<LocationProfileTable>): Promise<void> {
  return updateById(db, 'location_profile', 'SC_ID', id, values);
}

/** Makes `id` the only current profile of its enterprise (clear first: one current per enterprise is unique). */
export async function makeCurrent(db: Kysely<DB>, enterpriseId: number, id: number) {
  await db
    .updateTable('location_profile')
    .set({ IsCurrent: 0 })
    .where('E_ID', '=', enterpriseId)
    .where('IsCurrent', '=', 1)
    .execute();
  await db.updateTable('location_profile').set({ IsCurrent: 1 }).where('SC_ID', '=', id).execute();
}

export async function deleteProfile(db: Kysely<DB>, id: number) {
  await db.deleteFrom('location_profile').where('SC_ID', '=', id).execute();
}
