import { NotifyLimits, NotifyStates, parseAlarmDetail, type Notification, type NotifyRow } from '@intercom/contract';
import type { Kysely, Updateable } from 'kysely';
import type { DB, NotificationTable } from '../../db/schema.js';
import type { Scope } from '../../tenancy/scope.js';
import { encodeDetail, splitContent, type AlarmContent } from './alarmContent.js';

const ROW = [
  'N_ID',
  'E_ID',
  'U_ID',
  'UserName',
  'Phone',
  'NType',
  'Content',
  'Latitude',
  'Longitude',
  'State',
  'AckBy',
  'AckName',
  'AckAt',
  'AckComment',
  'HandledBy',
  'HandledName',
  'HandledAt',
  'Comment',
  'CreatedAt',
  'Escalated',
] as const;

/** What raising an alarm needs; the real-time side (terminal gateway) calls `insertNotification`. */
export interface NewNotification {
  E_ID: number;
  U_ID: number | null;
  Phone: string;
  /** SOS, LowBattery, Offline, HeartRate (NotificationTypes of the hub contract) or another short name. */
  NType: string;
  /** A text as it is, or details as a key and parameters with the English words (alarmText). */
  Content?: AlarmContent;
  Latitude?: number | null;
  Longitude?: number | null;
  /** When it was raised, on the raiser's clock (AppDeps.clock). */
  CreatedAt: number;
}

/**
 * Stores a new alarm (State `new`) and returns it in the hub's Notification shape, ready for
 * `realtime.live.raiseNotification`. Texts are cut to their column sizes; a position must be finite.
 * Raising is not an account's change, so it writes no system-log row; acknowledging and resolving do.
 */
export async function insertNotification(db: Kysely<DB>, input: NewNotification): Promise<Notification> {
  const finite = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const { Content, Detail } = splitContent(input.Content);
  const values = {
    E_ID: input.E_ID,
    U_ID: input.U_ID,
    Phone: input.Phone.slice(0, 32),
    NType: input.NType.slice(0, NotifyLimits.typeMax),
    Content: Content.slice(0, NotifyLimits.contentMax),
    Latitude: finite(input.Latitude),
    Longitude: finite(input.Longitude),
    State: NotifyStates.new,
    HandledBy: null,
    HandledAt: null,
    Comment: '',
    CreatedAt: input.CreatedAt,
  };
  const row = await db
    .insertInto('notification')
    .values({ ...values, Detail: encodeDetail(Detail) })
    .returning('N_ID')
    .executeTakeFirstOrThrow();
  const { HandledBy: _by, HandledAt: _at, Comment: _comment, ...shown } = values;
  return Detail ? { N_ID: row.N_ID, ...shown, Detail } : { N_ID: row.N_ID, ...shown };
}

/**
 * Adds each alarm's Detail to a page of rows of notification_view (QueryData's completeRows): the
 * column is read from the table by id, so the view and the export stay as they were.
 */
export async function withDetails<Row extends Record<string, unknown>>(db: Kysely<DB>, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((row) => Number(row.N_ID));
  if (ids.length === 0) return rows;
  const stored = await db.selectFrom('notification').select(['N_ID', 'Detail']).where('N_ID', 'in', ids).execute();
  const details = new Map(stored.map((row) => [Number(row.N_ID), parseAlarmDetail(row.Detail)]));
  return rows.map((row) => ({ ...row, Detail: details.get(Number(row.N_ID)) ?? null }));
}

/** Alarms `ids` of the scope (fewer when some are outside it). */
export async function findNotifications(db: Kysely<DB>, scope: Scope, ids: readonly number[]): Promise<NotifyRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('notification_view')
    .select(ROW)
    .where('N_ID', 'in', [...ids])
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .orderBy('N_ID')
    .execute();
}

/** Changes alarms whose State is still one of `from`; returns how many changed. */
export async function updateNotifications(
  db: Kysely<DB>,
  ids: readonly number[],
  from: readonly string[],
  values: Updateable<NotificationTable>,
): Promise<number> {
  const result = await db
    .updateTable('notification')
    .set(values)
    .where('N_ID', 'in', [...ids])
    .where('State', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The hub's Notification shape of a row. */
export function hubNotification(row: NotifyRow): Notification {
  const { N_ID, E_ID, U_ID, Phone, NType, Content, Latitude, Longitude, State, CreatedAt } = row;
  const shown = { N_ID, E_ID, U_ID, Phone, NType, Content, Latitude, Longitude, State, CreatedAt };
  return row.Escalated ? { ...shown, Escalated: true } : shown;
}
