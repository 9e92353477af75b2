import {
  ESCALATING_ALARM_TYPES,
  NotificationTypes,
  NotifyStates,
  parseAlarmDetail,
  type Notification,
} from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Claims alarm `N_ID` for emergency call `CID`: true when this call set it. An alarm pushed again
 * (escalated, after a restart, or heard by two instances) finds it claimed and opens nothing.
 */
export async function claimAlarm(db: Kysely<DB>, N_ID: number, CID: number): Promise<boolean> {
  const result = await db
    .updateTable('notification')
    .set({ CallID: CID })
    .where('N_ID', '=', N_ID)
    .where('CallID', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lets a claim go again (the call could not be opened: the terminal went meanwhile). */
export async function unclaimAlarm(db: Kysely<DB>, N_ID: number, CID: number): Promise<void> {
  await db
    .updateTable('notification')
    .set({ CallID: null })
    .where('N_ID', '=', N_ID)
    .where('CallID', '=', CID)
    .execute();
}

/** Safety alarms still `new` and not escalated that were raised at or before `raisedBy`, oldest first. */
export async function alarmsToEscalate(db: Kysely<DB>, raisedBy: number, limit: number) {
  return db
    .selectFrom('notification')
    .select(['N_ID', 'E_ID', 'U_ID', 'Phone', 'NType', 'Content', 'Latitude', 'Longitude', 'State', 'CreatedAt'])
    .select('Detail')
    .where('State', '=', NotifyStates.new)
    .where('Escalated', '=', 0)
    .where('CreatedAt', '<=', raisedBy)
    .where('NType', 'in', [...ESCALATING_ALARM_TYPES])
    .orderBy('CreatedAt')
    .limit(limit)
    .execute();
}

/** Marks an alarm escalated; false when another instance did, or it was acknowledged meanwhile. */
export async function markEscalated(db: Kysely<DB>, N_ID: number): Promise<boolean> {
  const result = await db
    .updateTable('notification')
    .set({ Escalated: 1 })
    .where('N_ID', '=', N_ID)
    .where('Escalated', '=', 0)
    .where('State', '=', NotifyStates.new)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The alarms users `userIds` of enterprise `E_ID` raised since `since`, by N_ID. */
export async function alarmsOfUsersSince(db: Kysely<DB>, E_ID: number, userIds: readonly number[], since: number) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('notification')
    .select(['N_ID', 'U_ID', 'CreatedAt'])
    .where('E_ID', '=', E_ID)
    .where('U_ID', 'in', [...userIds])
    .where('CreatedAt', '>=', since)
    .orderBy('N_ID')
    .execute();
}

/**
 * The unhandled alarms (State `new`), newest `limit` of them, oldest first: what a starting instance
 * shows before any is raised again (LiveState.showUnhandled).
 */
export async function unhandledAlarms(db: Kysely<DB>, limit = 50_000): Promise<Notification[]> {
  const rows = await db
    .selectFrom('notification')
    .select(['N_ID', 'E_ID', 'U_ID', 'Phone', 'NType', 'Content', 'Latitude', 'Longitude', 'State', 'CreatedAt'])
    .select(['Escalated', 'Detail'])
    .where('State', '=', NotifyStates.new)
    .orderBy('CreatedAt', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map(({ Escalated, Detail, ...row }) => {
    const detail = parseAlarmDetail(Detail);
    return { ...row, ...(Escalated ? { Escalated: true } : {}), ...(detail && { Detail: detail }) };
  });
}

/** Who has an unhandled low-battery or heart-rate alarm: inside an episode, not to be alarmed again. */
export async function unhandledEpisodeAlarms(db: Kysely<DB>): Promise<{ U_ID: number; NType: string }[]> {
  const rows = await db
    .selectFrom('notification')
    .select(['U_ID', 'NType'])
    .distinct()
    .where('State', '=', NotifyStates.new)
    .where('NType', 'in', [NotificationTypes.lowBattery, NotificationTypes.heartRate])
    .execute();
  return rows.flatMap((row) => (row.U_ID === null ? [] : [{ U_ID: Number(row.U_ID), NType: row.NType }]));
}
