import type { ChannelRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ChannelTable, DB } from '../../db/schema.js';
import { insertReturningId } from '../../db/byId.js';
import { valueTaken } from '../../db/valueTaken.js';
import type { Scope } from '../../tenancy/scope.js';

export const CHANNEL_ROW = [
  'CID',
  'E_ID',
  'CName',
  'CTypeID',
  'Note',
  'Priority',
  'VideoEnable',
  'Record',
  'MemberCount',
  'CreatedAt',
] as const;

export type ChannelRecord = ChannelRow;

/** Rows per INSERT and ids per IN list: far below SQLite's and PostgreSQL's parameter limits. */
const BATCH = 500;

function chunks<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The channels of the scope with their member counts (outside the scope is absent). */
function channelsOfScope(db: Kysely<DB>, scope: Scope) {
  return db
    .selectFrom('channel_view')
    .select(CHANNEL_ROW)
    .where('E_ID', 'in', [...scope.enterpriseIds]);
}

/** One channel of the scope with its member count, or undefined. */
export async function findChannel(db: Kysely<DB>, scope: Scope, id: number): Promise<ChannelRecord | undefined> {
  const row = await channelsOfScope(db, scope).where('CID', '=', id).executeTakeFirst();
  return row ? { ...row, MemberCount: Number(row.MemberCount) } : undefined;
}

/** The identity of a channel of the scope, without counting its members (for per-request checks). */
export async function findChannelRef(db: Kysely<DB>, scope: Scope, id: number) {
  return db
    .selectFrom('channel')
    .select(['CID', 'E_ID', 'CName', 'Record'])
    .where('CID', '=', id)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
}

/** Channels `ids` of the scope (fewer when some are outside it). */
export async function findChannels(db: Kysely<DB>, scope: Scope, ids: readonly number[]): Promise<ChannelRecord[]> {
  const rows: ChannelRecord[] = [];
  for (const part of chunks(ids)) {
    const found = await channelsOfScope(db, scope).where('CID', 'in', part).execute();
    rows.push(...found.map((r) => ({ ...r, MemberCount: Number(r.MemberCount) })));
  }
  return rows;
}

export function nameTaken(db: Kysely<DB>, enterpriseId: number, name: string, exceptId = 0): Promise<boolean> {
  return valueTaken(db, 'channel', { id: 'CID', unique: 'CName' }, enterpriseId, name, exceptId);
}

export function insertChannel(db: Kysely<DB>, values: Insertable<ChannelTable>): Promise<number> {
  return insertReturningId(db, 'channel', 'CID', values);
}

export async function updateChannels(
  db: Kysely<DB>,
  ids: readonly number[],
  values: Updateable<ChannelTable>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  for (const part of chunks(ids)) await db.updateTable('channel').set(values).where('CID', 'in', part).execute();
}

export async function deleteChannel(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('channel_member').where('CID', '=', id).execute();
  await db.deleteFrom('channel').where('CID', '=', id).execute();
}

/** Every member of a channel with its priority. */
export async function memberPriorities(db: Kysely<DB>, channelId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('channel_member')
    .select(['UserID', 'Priority'])
    .where('CID', '=', channelId)
    .execute();
  return new Map(rows.map((r) => [r.UserID, r.Priority]));
}

/** The channels a user is a member of, with its priority in each. */
export async function roomsOf(db: Kysely<DB>, userId: number): Promise<Map<number, number>> {
  const rows = await db.selectFrom('channel_member').select(['CID', 'Priority']).where('UserID', '=', userId).execute();
  return new Map(rows.map((r) => [r.CID, r.Priority]));
}

export interface MemberInsert {
  CID: number;
  UserID: number;
  E_ID: number;
  Priority: number;
}

/** Batched multi-row inserts; a member already there (a concurrent add) is left as it is. */
export async function insertMembers(db: Kysely<DB>, rows: readonly MemberInsert[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db
      .insertInto('channel_member')
      .values(part)
      .onConflict((oc) => oc.columns(['CID', 'UserID']).doNothing())
      .execute();
  }
}

/**
 * The membership rows seen from one side: one channel (CID) with some of its users, or one user
 * (UserID) with some of its channels. The first column is the one, the second the list.
 */
type Side = readonly ['CID', 'UserID'] | readonly ['UserID', 'CID'];
const ofChannel: Side = ['CID', 'UserID'];
const ofUser: Side = ['UserID', 'CID'];

async function deleteMemberships(db: Kysely<DB>, [one, many]: Side, id: number, ids: readonly number[]) {
  for (const part of chunks(ids)) {
    await db.deleteFrom('channel_member').where(one, '=', id).where(many, 'in', part).execute();
  }
}

async function setMembershipPriority(
  db: Kysely<DB>,
  [one, many]: Side,
  id: number,
  ids: readonly number[],
  priority: number,
) {
  for (const part of chunks(ids)) {
    await db
      .updateTable('channel_member')
      .set({ Priority: priority })
      .where(one, '=', id)
      .where(many, 'in', part)
      .execute();
  }
}

export function deleteMembers(db: Kysely<DB>, channelId: number, userIds: readonly number[]): Promise<void> {
  return deleteMemberships(db, ofChannel, channelId, userIds);
}

export function setMemberPriority(db: Kysely<DB>, channelId: number, userIds: readonly number[], priority: number) {
  return setMembershipPriority(db, ofChannel, channelId, userIds, priority);
}

/** Removes one user from several channels. */
export function leaveRooms(db: Kysely<DB>, userId: number, channelIds: readonly number[]): Promise<void> {
  return deleteMemberships(db, ofUser, userId, channelIds);
}

/** Sets one user's priority in several channels. */
export function setRoomPriority(db: Kysely<DB>, userId: number, channelIds: readonly number[], priority: number) {
  return setMembershipPriority(db, ofUser, userId, channelIds, priority);
}
