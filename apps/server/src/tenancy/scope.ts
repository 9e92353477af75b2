import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { subtree } from './subtree.js';

/**
 * What an account may see: its enterprise and every descendant (DESIGN.md section 5). Every
 * repository function takes a Scope and filters by `enterpriseIds`; nothing runs without one.
 */
export interface Scope {
  /** The enterprise the caller works in (its own, later switchable to a sub-enterprise). */
  rootId: number;
  enterpriseIds: readonly number[];
}

export async function loadScope(db: Kysely<DB>, rootId: number): Promise<Scope> {
  const rows = await sql<{ E_ID: number }>`
    with recursive tree("E_ID") as (
      select "E_ID" from "enterprise" where "E_ID" = ${rootId}
      union all
      select e."E_ID" from "enterprise" e join tree t on e."P_ID" = t."E_ID"
    )
    select "E_ID" from tree`.execute(db);
  return { rootId, enterpriseIds: rows.rows.map((r) => Number(r.E_ID)) };
}

export function inScope(scope: Scope, enterpriseId: number): boolean {
  return scope.enterpriseIds.includes(enterpriseId);
}

/**
 * The scope of a session that switched to a working enterprise: the working enterprise and its
 * descendants, provided it lies inside the account's own scope; otherwise the own scope. One
 * query: the own tree is read once and the working subtree is cut from it.
 */
export async function loadWorkingScope(db: Kysely<DB>, ownRootId: number, workingId: number | null): Promise<Scope> {
  if (workingId === null || workingId === ownRootId) return loadScope(db, ownRootId);
  const rows = await sql<{ E_ID: number; P_ID: number | null }>`
    with recursive tree("E_ID", "P_ID") as (
      select "E_ID", "P_ID" from "enterprise" where "E_ID" = ${ownRootId}
      union all
      select e."E_ID", e."P_ID" from "enterprise" e join tree t on e."P_ID" = t."E_ID"
    )
    select "E_ID", "P_ID" from tree`.execute(db);
  const children = new Map<number, number[]>();
  let found = false;
  for (const row of rows.rows) {
    const id = Number(row.E_ID);
    if (id === workingId) found = true;
    if (row.P_ID === null) continue;
    const siblings = children.get(Number(row.P_ID));
    if (siblings) siblings.push(id);
    else children.set(Number(row.P_ID), [id]);
  }
  if (!found) return { rootId: ownRootId, enterpriseIds: rows.rows.map((r) => Number(r.E_ID)) };
  return { rootId: workingId, enterpriseIds: subtree(children, workingId) };
}
