import { AlarmDetailKeys, SafetyAlarmTypes, type SafetySettings } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { clearState, passCheckIn } from './safetyRepository.js';
import { alarmText, type AlarmContent } from '../notify/index.js';

const MINUTE = 60_000;

/** A user whose check-in deadline has passed. */
export interface CheckInSubject {
  U_ID: number;
  E_ID: number;
  Phone: string;
}

export interface MissedCheckInHooks {
  /** The settings in force for the user now (the watch's per-enterprise cache). */
  settings(user: CheckInSubject, now: number): Promise<SafetySettings>;
  /** Raises the user's LoneWorker alarm (AlarmRaiser: at its latest fix). */
  raise(user: CheckInSubject, NType: string, Content: AlarmContent): Promise<unknown>;
}

/**
 * Judges every missed check-in in the database, whether its terminal is connected here, elsewhere or
 * nowhere (a worker whose phone died misses it too), so a restart loses none: the deadline is the
 * row's `DeadlineAt`, not a timer. Each due row is claimed by a conditional update (`where DueAt` is
 * still the one read, passCheckIn), so of several instances sweeping at once one raises the alarm.
 * Returns the users whose schedule this call moved (the watch reads them again).
 */
export async function sweepMissedCheckIns(
  db: Kysely<DB>,
  hooks: MissedCheckInHooks,
  now: number,
  batch = 500,
): Promise<number[]> {
  const rows = await db
    .selectFrom('safety_state as s')
    .leftJoin('terminal_user as u', 'u.UserID', 's.U_ID')
    .select(['s.U_ID', 'u.E_ID', 'u.MobilePhone as Phone', 's.DueAt'])
    .where('s.DeadlineAt', '<=', now)
    .orderBy('s.DeadlineAt')
    .limit(batch)
    .execute();
  const moved: number[] = [];
  for (const row of rows) {
    const missed = row.DueAt === null ? null : Number(row.DueAt);
    if (row.E_ID === null || row.Phone === null) {
      await clearState(db, row.U_ID); // the user is gone
      continue;
    }
    if (missed === null) continue;
    const user = { U_ID: row.U_ID, E_ID: row.E_ID, Phone: row.Phone };
    const s = await hooks.settings(user, now);
    if (s.CheckInMinutes === 0) {
      // Switched off while nobody watched the user: nothing is due any more.
      const off = await db
        .updateTable('safety_state')
        .set({ DueAt: null, DeadlineAt: null })
        .where('U_ID', '=', row.U_ID)
        .where('DueAt', '=', missed)
        .executeTakeFirst();
      if (Number(off.numUpdatedRows) > 0) moved.push(row.U_ID);
      continue;
    }
    const period = s.CheckInMinutes * MINUTE;
    const next = { DueAt: now + period, DeadlineAt: now + period + s.GraceMinutes * MINUTE };
    if (!(await passCheckIn(db, row.U_ID, missed, next))) continue; // a check-in or another instance
    moved.push(row.U_ID);
    const late = Math.round((now - missed) / MINUTE);
    const content = alarmText(
      AlarmDetailKeys.checkInMissed,
      { minutes: late },
      `Check-in missed (due ${late} min ago)`,
    );
    await hooks.raise(user, SafetyAlarmTypes.loneWorker, content);
  }
  return moved;
}
