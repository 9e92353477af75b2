import type { ConsoleAccountRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AccountTable, DB } from '../../db/schema.js';
import { insertReturningId, updateById } from '../../db/byId.js';
import { valueTaken } from '../../db/valueTaken.js';
import type { Scope } from '../../tenancy/scope.js';

export const ACCOUNT_ROW = ['A_ID', 'E_ID', 'LoginName', 'Name', 'Mail', 'Role', 'Disabled', 'CreatedAt'] as const;

/** One console account of the scope (never its hash), or undefined (outside the scope is absent). */
export async function findAccount(db: Kysely<DB>, scope: Scope, id: number): Promise<ConsoleAccountRow | undefined> {
  return db
    .selectFrom('account')
    .select(ACCOUNT_ROW)
    .where('A_ID', '=', id)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
}

export function loginTaken(db: Kysely<DB>, enterpriseId: number, loginName: string, exceptId = 0): Promise<boolean> {
  return valueTaken(db, 'account', { id: 'A_ID', unique: 'LoginName' }, enterpriseId, loginName, exceptId);
}

/** Active (not disabled) admins of an enterprise other than `exceptId`. */
export async function otherActiveAdmins(db: Kysely<DB>, enterpriseId: number, exceptId: number): Promise<number> {
  const row = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', enterpriseId)
    .where('Role', '=', 'admin')
    .where('Disabled', '=', 0)
    .where('A_ID', '<>', exceptId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertAccount(db: Kysely<DB>, values: Insertable<AccountTable>): Promise<number> {
  return insertReturningId(db, 'account', 'A_ID', values);
}

export function updateAccount(db: Kysely<DB>, id: number, values: Updateable<AccountTable>): Promise<void> {
  return updateById(db, 'account', 'A_ID', id, values);
}

/** Deletes an account with its session history; an enterprise naming it as its admin forgets it. */
export async function deleteAccount(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('session').where('A_ID', '=', id).execute();
  await db.updateTable('enterprise').set({ A_ID: null }).where('A_ID', '=', id).execute();
  await db.deleteFrom('account').where('A_ID', '=', id).execute();
}
