import type { RawFix } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * The fixes of one user in [from, to], oldest first (the location_history_track index serves
 * the whole read). Only the six columns the track needs, so a day at 1 Hz stays one cheap scan.
 */
export async function fixesOf(
  db: Kysely<DB>,
  user: { E_ID: number; U_ID: number },
  range: { from: number; to: number },
): Promise<RawFix[]> {
  const rows = await db
    .selectFrom('location_history')
    .select(['H_Time', 'C_Latitude', 'C_Longitude', 'Speed', 'Course', 'H_Type'])
    .where('E_ID', '=', user.E_ID)
    .where('U_ID', '=', user.U_ID)
    .where('H_Time', '>=', range.from)
    .where('H_Time', '<=', range.to)
    .orderBy('H_Time')
    .orderBy('H_ID')
    .execute();
  return rows.map((r) => ({
    t: Number(r.H_Time),
    lat: r.C_Latitude,
    lon: r.C_Longitude,
    speed: r.Speed,
    course: r.Course,
    type: r.H_Type,
  }));
}
