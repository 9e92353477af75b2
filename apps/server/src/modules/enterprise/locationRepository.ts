import type { LocationProfileRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, LocationProfileTable } from '../../db/schema.js';
import type { Scope } from '../../tenancy/scope.js';

const ROW = ['SC_ID', 'E_ID', 'SCName', 'SCValue', 'IsCurrent'] as const;

/** The profiles of one enterprise, current first then by name. */
export async function profilesOf(db: Kysely<DB>, enterpriseId: number): Promise<LocationProfileRow[]> {
  return db
    .selectFrom('location_profile')
    .select(ROW)
    .where('E_ID', '=', enterpriseId)
    .orderBy('IsCurrent', 'desc')
    .orderBy('SC_ID')
    .execute();
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
  return db
    .selectFrom('location_profile')
    .select(ROW)
    .where('E_ID', '=', enterpriseId)
    .where('IsCurrent', '=', 1)
    .executeTakeFirst();
}

export async function profileNameTaken(db: Kysely<DB>, enterpriseId: number, name: string, exceptId = 0) {
  const row = await db
    .selectFrom('location_profile')
    .select('SC_ID')
    .where('E_ID', '=', enterpriseId)
    .where('SCName', '=', name)
    .where('SC_ID', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countProfiles(db: Kysely<DB>, enterpriseId: number): Promise<number> {
  const row = await db
    .selectFrom('location_profile')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', enterpriseId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertProfile(db: Kysely<DB>, values: Insertable<LocationProfileTable>): Promise<number> {
  const row = await db.insertInto('location_profile').values(values).returning('SC_ID').executeTakeFirstOrThrow();
  return row.SC_ID;
}

export async function updateProfile(db: Kysely<DB>, id: number, values: Updateable<LocationProfileTable>) {
  await db.updateTable('location_profile').set(values).where('SC_ID', '=', id).execute();
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
