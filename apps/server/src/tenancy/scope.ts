import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

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
