import { dispatchNoOf, type DispatchNo } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../auth/authContext.js';
import type { DB } from '../../db/schema.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';

/**
 * DispatchNo: the enterprise's dispatch seats, one per enabled console account. The number is
 * derived from the account id, so it is stable and never equals a terminal's phone number.
 */
export async function dispatchNumbers(db: Kysely<DB>, auth: AuthContext, eid?: number): Promise<DispatchNo[]> {
  const E_ID = enterpriseOf(auth.scope, eid);
  const rows = await db
    .selectFrom('account')
    .select(['A_ID', 'E_ID', 'Name', 'Role'])
    .where('E_ID', '=', E_ID)
    .where('Disabled', '=', 0)
    .orderBy('A_ID')
    .execute();
  return rows.map((a) => ({
    DispatchNo: dispatchNoOf(a.A_ID),
    A_ID: a.A_ID,
    E_ID: a.E_ID,
    Name: a.Name,
    Role: a.Role,
    Self: a.A_ID === auth.account.A_ID,
  }));
}
