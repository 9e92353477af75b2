import type { OrganRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, OrganTable } from '../../db/schema.js';
import { insertReturningId, updateById } from '../../db/byId.js';
import type { Scope } from '../../tenancy/scope.js';
import { subtree } from '../../tenancy/subtree.js';

const ROW = ['OSID', 'E_ID', 'OSParentID', 'OSName', 'U_TypeID', 'PriorityLevel'] as const;

/** One department of the scope, or undefined (outside the scope is the same as absent). */
export async function findOrgan(db: Kysely<DB>, scope: Scope, id: number): Promise<OrganRow | undefined> {
  return db
    .selectFrom('organ')
    .select(ROW)
    .where('OSID', '=', id)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
}

/** Every department of one enterprise (a few hundred at most): trees and cycle checks work on this. */
export async function organsOf(db: Kysely<DB>, enterpriseId: number): Promise<OrganRow[]> {
  return db.selectFrom('organ').select(ROW).where('E_ID', '=', enterpriseId).orderBy('OSID').execute();
}

export async function siblingNameTaken(
  db: Kysely<DB>,
  organ: { E_ID: number; OSParentID: number; OSName: string },
  exceptId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('organ')
    .select('OSID')
    .where('E_ID', '=', organ.E_ID)
    .where('OSParentID', '=', organ.OSParentID)
    .where('OSName', '=', organ.OSName)
    .where('OSID', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countChildren(db: Kysely<DB>, id: number): Promise<number> {
  const row = await db
    .selectFrom('organ')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('OSParentID', '=', id)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function countDirectUsers(db: Kysely<DB>, enterpriseId: number, id: number): Promise<number> {
  const row = await db
    .selectFrom('terminal_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', enterpriseId)
    .where('OS_ID', '=', id)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertOrgan(db: Kysely<DB>, values: Insertable<OrganTable>): Promise<number> {
  return insertReturningId(db, 'organ', 'OSID', values);
}

export function updateOrgan(db: Kysely<DB>, id: number, values: Updateable<OrganTable>): Promise<void> {
  return updateById(db, 'organ', 'OSID', id, values);
}

/** Deletes a department; devices placed in it lose their department. */
export async function deleteOrgan(db: Kysely<DB>, id: number): Promise<void> {
  await db.updateTable('device').set({ OSID: null }).where('OSID', '=', id).execute();
  await db.deleteFrom('organ').where('OSID', '=', id).execute();
}

/** Ids of a department and all its descendants, from the enterprise's department list. */
export function subtreeIds(organs: readonly OrganRow[], rootId: number): number[] {
  return subtree(childrenMap(organs), rootId);
}

export function childrenMap(organs: readonly OrganRow[]): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const organ of organs) {
    const siblings = children.get(organ.OSParentID);
    if (siblings) siblings.push(organ.OSID);
    else children.set(organ.OSParentID, [organ.OSID]);
  }
  return children;
}
