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

/** What one fix changed for one user: the fences entered, left (or forgotten), and dwelt in long enough. */
export interface Crossings {
  U_ID: number;
  E_ID: number;
  /** The fix time: EnteredAt of an entry, DwellAt of a dwell. */
  at: number;
  entered: readonly number[];
  left: readonly number[];
  dwelt: readonly number[];
}

/** The fences whose row this call changed, by what changed: only they may raise an alarm. */
export interface CrossingsWritten {
  entered: ReadonlySet<number>;
  left: ReadonlySet<number>;
  dwelt: ReadonlySet<number>;
}

/**
 * Writes one fix's crossings in one transaction, a statement for each kind whatever the number of
 * fences (one statement alone is its own transaction). Each write is conditional: an entry where no
 * row was, a removal of a row that was there, a dwell not marked yet; RETURNING says which rows this
 * call changed (SQLite 3.35+ and PostgreSQL alike).
 */
export async function recordCrossings(db: Kysely<DB>, c: Crossings): Promise<CrossingsWritten> {
  const statements = [c.entered, c.left, c.dwelt].filter((ids) => ids.length > 0).length;
  const write = async (trx: Kysely<DB>): Promise<CrossingsWritten> => {
    const entered =
      c.entered.length === 0
        ? []
        : await trx
            .insertInto('geofence_state')
            .values(c.entered.map((GF_ID) => ({ U_ID: c.U_ID, GF_ID, E_ID: c.E_ID, EnteredAt: c.at, DwellAt: null })))
            .onConflict((oc) => oc.columns(['U_ID', 'GF_ID']).doNothing())
            .returning('GF_ID')
            .execute();
    const left =
      c.left.length === 0
        ? []
        : await trx
            .deleteFrom('geofence_state')
            .where('U_ID', '=', c.U_ID)
            .where('GF_ID', 'in', [...c.left])
            .returning('GF_ID')
            .execute();
    const dwelt =
      c.dwelt.length === 0
        ? []
        : await trx
            .updateTable('geofence_state')
            .set({ DwellAt: c.at })
            .where('U_ID', '=', c.U_ID)
            .where('GF_ID', 'in', [...c.dwelt])
            .where('DwellAt', 'is', null)
            .returning('GF_ID')
            .execute();
    const ids = (rows: readonly { GF_ID: number }[]) => new Set(rows.map((r) => r.GF_ID));
    return { entered: ids(entered), left: ids(left), dwelt: ids(dwelt) };
  };
  return statements > 1 ? db.transaction().execute(write) : write(db);
}
