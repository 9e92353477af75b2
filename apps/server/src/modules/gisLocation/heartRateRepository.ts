import type { HeartRateRow } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The newest `pageSize` readings of one user inside the time bounds, returned oldest first, and their count. */
export async function heartRatesOf(
  db: Kysely<DB>,
  user: { E_ID: number; U_ID: number },
  filter: { H_Time1?: number; H_Time2?: number; pageSize: number },
): Promise<{ rows: HeartRateRow[]; total: number }> {
  let base = db.selectFrom('heart_rate').where('E_ID', '=', user.E_ID).where('U_ID', '=', user.U_ID);
  if (filter.H_Time1 !== undefined) base = base.where('H_Time', '>=', filter.H_Time1);
  if (filter.H_Time2 !== undefined) base = base.where('H_Time', '<=', filter.H_Time2);
  const [rows, count] = await Promise.all([
    base
      .select(['HR_ID', 'E_ID', 'U_ID', 'Phone', 'Value', 'H_Time'])
      .orderBy('H_Time', 'desc')
      .orderBy('HR_ID', 'desc')
      .limit(filter.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows: rows.map((r) => ({ ...r, HR_ID: Number(r.HR_ID) })).reverse(), total: Number(count?.n ?? 0) };
}

export async function countUsers(db: Kysely<DB>, enterpriseIds: readonly number[]): Promise<number> {
  const row = await db
    .selectFrom('terminal_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', 'in', [...enterpriseIds])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
