import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** An open emergency call as stored (`emergency_call`, EndedAt null). */
export interface OpenEmergencyCall {
  CID: number;
  E_ID: number;
  U_ID: number;
  UserName: string;
  Record: boolean;
  MaxTalkMs: number;
}

/** Stores a call that opened (replacing a stale row of the same CID from before a restart). */
export async function recordOpened(db: Kysely<DB>, call: OpenEmergencyCall, at: number): Promise<void> {
  const values = { ...call, Record: call.Record ? 1 : 0, OpenedAt: at, EndedAt: null };
  const { CID: _cid, ...update } = values;
  await db
    .insertInto('emergency_call')
    .values(values)
    .onConflict((oc) => oc.column('CID').doUpdateSet(update))
    .execute();
}

/** Marks calls ended; returns the CIDs this call ended. */
export async function recordEnded(db: Kysely<DB>, cids: readonly number[], at: number): Promise<void> {
  if (cids.length === 0) return;
  await db
    .updateTable('emergency_call')
    .set({ EndedAt: at })
    .where('CID', 'in', [...cids])
    .where('EndedAt', 'is', null)
    .execute();
}

/** The open calls of enterprises `enterpriseIds` (a seat's scope), oldest first. */
export async function openCallsIn(db: Kysely<DB>, enterpriseIds: readonly number[]): Promise<OpenEmergencyCall[]> {
  if (enterpriseIds.length === 0) return [];
  const rows = await db
    .selectFrom('emergency_call')
    .select(['CID', 'E_ID', 'U_ID', 'UserName', 'Record', 'MaxTalkMs'])
    .where('EndedAt', 'is', null)
    .where('E_ID', 'in', [...enterpriseIds])
    .orderBy('OpenedAt')
    .limit(100)
    .execute();
  return rows.map((r) => ({ ...r, CID: Number(r.CID), Record: r.Record !== 0 }));
}

/** The calls still stored open for a user (a terminal that logs in again has none: they are stale). */
export async function openCallsOf(db: Kysely<DB>, U_ID: number): Promise<number[]> {
  const rows = await db
    .selectFrom('emergency_call')
    .select('CID')
    .where('U_ID', '=', U_ID)
    .where('EndedAt', 'is', null)
    .execute();
  return rows.map((r) => Number(r.CID));
}
