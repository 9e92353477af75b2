import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The rows that say a user is inside a fence. Every write is conditional, and only the writer
 * whose write changed a row raises the alarm: of two instances (or a restart) that see the same
 * crossing, one alarms.
 */
export interface InsideRow {
  GF_ID: number;
  EnteredAt: number;
  DwellAt: number | null;
}

export async function insideOf(db: Kysely<DB>, U_ID: number): Promise<InsideRow[]> {
  const rows = await db
    .selectFrom('geofence_state')
    .select(['GF_ID', 'EnteredAt', 'DwellAt'])
    .where('U_ID', '=', U_ID)
    .execute();
  return rows.map((r) => ({
    GF_ID: r.GF_ID,
    EnteredAt: Number(r.EnteredAt),
    DwellAt: r.DwellAt === null ? null : Number(r.DwellAt),
  }));
}

/** The user's department (null: none, or the user is gone). */
export async function departmentOf(db: Kysely<DB>, U_ID: number): Promise<number | null> {
  const row = await db.selectFrom('terminal_user').select('OS_ID').where('UserID', '=', U_ID).executeTakeFirst();
  return row?.OS_ID ?? null;
}

/** True when this call recorded the entry (no row was there). */
export async function recordEntered(
  db: Kysely<DB>,
  row: { U_ID: number; GF_ID: number; E_ID: number; EnteredAt: number },
): Promise<boolean> {
  const result = await db
    .insertInto('geofence_state')
    .values({ ...row, DwellAt: null })
    .onConflict((oc) => oc.columns(['U_ID', 'GF_ID']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when this call removed the entry. */
export async function recordLeft(db: Kysely<DB>, U_ID: number, GF_ID: number): Promise<boolean> {
  const result = await db
    .deleteFrom('geofence_state')
    .where('U_ID', '=', U_ID)
    .where('GF_ID', '=', GF_ID)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** True when this call marked the dwell (it was not marked yet). */
export async function recordDwell(db: Kysely<DB>, U_ID: number, GF_ID: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('geofence_state')
    .set({ DwellAt: at })
    .where('U_ID', '=', U_ID)
    .where('GF_ID', '=', GF_ID)
    .where('DwellAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
