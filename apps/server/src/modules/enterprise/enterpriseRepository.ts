import type { EnterpriseBrief, EnterpriseDetail, EnterpriseRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, EnterpriseTable } from '../../db/schema.js';
import { insertReturningId, updateById } from '../../db/byId.js';
import { inScope, type Scope } from '../../tenancy/scope.js';

const ROW = ['E_ID', 'E_Code', 'E_Name', 'P_ID', 'A_ID', 'Quota', 'ExpireAt', 'Disabled', 'CreatedAt'] as const;
const BRIEF = ['E_ID', 'E_Code', 'E_Name', 'P_ID', 'Disabled'] as const;

/** One enterprise of the scope, or undefined (outside the scope is the same as absent). */
export async function findEnterprise(db: Kysely<DB>, scope: Scope, id: number): Promise<EnterpriseRow | undefined> {
  if (!inScope(scope, id)) return undefined;
  return db.selectFrom('enterprise').select(ROW).where('E_ID', '=', id).executeTakeFirst();
}

export async function countUsers(db: Kysely<DB>, enterpriseId: number): Promise<number> {
  const row = await db
    .selectFrom('terminal_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', enterpriseId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function enterpriseDetail(
  db: Kysely<DB>,
  scope: Scope,
  id: number,
): Promise<EnterpriseDetail | undefined> {
  const row = await findEnterprise(db, scope, id);
  if (!row) return undefined;
  const [UserCount, children] = await Promise.all([
    countUsers(db, id),
    db
      .selectFrom('enterprise')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('P_ID', '=', id)
      .executeTakeFirst(),
  ]);
  return { ...row, UserCount, Balance: Math.max(0, row.Quota - UserCount), ChildCount: Number(children?.n ?? 0) };
}

export async function briefsOf(db: Kysely<DB>, ids: readonly number[]): Promise<EnterpriseBrief[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('enterprise')
    .select(BRIEF)
    .where('E_ID', 'in', [...ids])
    .orderBy('E_ID')
    .execute();
}

/** The enterprise with this company code (case-insensitive), or undefined. */
export async function enterpriseIdByCode(db: Kysely<DB>, code: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('enterprise')
    .select('E_ID')
    .where((eb) => eb(eb.fn('lower', ['E_Code']), '=', code.toLowerCase()))
    .executeTakeFirst();
  return row?.E_ID;
}

export async function codeTaken(db: Kysely<DB>, code: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('enterprise')
    .select('E_ID')
    .where((eb) => eb(eb.fn('lower', ['E_Code']), '=', code.toLowerCase()))
    .where('E_ID', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertEnterprise(db: Kysely<DB>, values: Insertable<EnterpriseTable>): Promise<number> {
  return insertReturningId(db, 'enterprise', 'E_ID', values);
}

export function updateEnterprise(db: Kysely<DB>, id: number, values: Updateable<EnterpriseTable>): Promise<void> {
  return updateById(db, 'enterprise', 'E_ID', id, values);
}

/**
 * Takes the enterprise's row lock until the transaction ends (PostgreSQL; SQLite transactions
 * are serial anyway), so quota and last-admin checks cannot race.
 */
export async function lockEnterprise(db: Kysely<DB>, id: number): Promise<void> {
  await db
    .updateTable('enterprise')
    .set((eb) => ({ Quota: eb.ref('Quota') }))
    .where('E_ID', '=', id)
    .execute();
}

/** Accounts of an enterprise (to end their sessions when it is disabled). */
export async function accountIdsOf(db: Kysely<DB>, enterpriseId: number): Promise<number[]> {
  const rows = await db.selectFrom('account').select('A_ID').where('E_ID', '=', enterpriseId).execute();
  return rows.map((r) => r.A_ID);
}

export async function setWorkingEnterprise(db: Kysely<DB>, sessionId: number, workingId: number | null): Promise<void> {
  await db.updateTable('session').set({ WorkingE_ID: workingId }).where('S_ID', '=', sessionId).execute();
}
