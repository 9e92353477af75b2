import type { Kysely, Selectable } from 'kysely';
import type { IncidentTable } from '../../db/incidentTables.js';
import type { DB } from '../../db/schema.js';
import type { Scope } from '../../tenancy/scope.js';

export type IncidentRecord = Selectable<IncidentTable>;
/** Every column of a new incident (its CID is set once its channel exists). */
export type IncidentValues = Omit<IncidentRecord, 'IN_ID'>;

/** A user put into (or taken out of) an incident: who, and the priority it talks with. */
export interface IncidentMember {
  U_ID: number;
  UserName: string;
  Priority: number;
}

export const MemberChanges = { joined: 'joined', left: 'left' } as const;
type MemberChange = (typeof MemberChanges)[keyof typeof MemberChanges];

/**
 * Sets `ClosedAt` of incident `IN_ID` while it is open; false when it was closed. With null it
 * changes nothing but takes the row's lock (PostgreSQL), which orders a join or leave against a close.
 */
async function updateOpen(db: Kysely<DB>, IN_ID: number, ClosedAt: number | null): Promise<boolean> {
  const result = await db
    .updateTable('incident')
    .set({ ClosedAt })
    .where('IN_ID', '=', IN_ID)
    .where('ClosedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Entries of the incident's timeline: these users joined or left at `at`. */
async function logChanges(
  db: Kysely<DB>,
  IN_ID: number,
  users: readonly { U_ID: number; UserName: string }[],
  at: number,
  change: MemberChange,
): Promise<void> {
  if (users.length === 0) return;
  await db
    .insertInto('incident_event')
    .values(users.map((u) => ({ IN_ID, U_ID: u.U_ID, UserName: u.UserName, At: at, Change: change })))
    .execute();
}

/** Incidents `ids` of the scope (fewer when some are outside it or unknown). */
export function findIncidents(db: Kysely<DB>, scope: Scope, ids: readonly number[]): Promise<IncidentRecord[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('incident')
    .selectAll()
    .where('IN_ID', 'in', [...ids])
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .orderBy('IN_ID')
    .execute();
}

/** The open incidents of one enterprise (the per-fix check). */
export function openIncidentsOf(db: Kysely<DB>, E_ID: number): Promise<IncidentRecord[]> {
  return db.selectFrom('incident').selectAll().where('E_ID', '=', E_ID).where('ClosedAt', 'is', null).execute();
}

export async function openCount(db: Kysely<DB>, E_ID: number): Promise<number> {
  const row = await db
    .selectFrom('incident')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', E_ID)
    .where('ClosedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The members of incidents `ids` now (or at their close), by incident. */
export async function membersOf(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('incident_member')
    .select(['IN_ID', 'U_ID'])
    .where('IN_ID', 'in', [...ids])
    .orderBy('U_ID')
    .execute();
  for (const row of rows) {
    const list = out.get(row.IN_ID);
    if (list) list.push(row.U_ID);
    else out.set(row.IN_ID, [row.U_ID]);
  }
  return out;
}

/** Whether a channel of that name exists in the enterprise (channel names are unique there). */
export async function channelNameTaken(db: Kysely<DB>, E_ID: number, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('channel')
    .select('CID')
    .where('E_ID', '=', E_ID)
    .where('CName', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/** The incident's channel: a real channel row (so the talk service treats it as any), noted as the incident's. */
export async function insertIncident(
  db: Kysely<DB>,
  values: IncidentValues,
  channel: { CTypeID: number; Record: boolean },
): Promise<{ IN_ID: number; CID: number }> {
  const { CID } = await db
    .insertInto('channel')
    .values({
      E_ID: values.E_ID,
      CName: values.Name,
      CTypeID: channel.CTypeID,
      Note: '',
      Priority: 0,
      VideoEnable: 0,
      Record: channel.Record ? 1 : 0,
      CreatedAt: values.CreatedAt,
    })
    .returning('CID')
    .executeTakeFirstOrThrow();
  const { IN_ID } = await db
    .insertInto('incident')
    .values({ ...values, CID })
    .returning('IN_ID')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('channel')
    .set({ Note: `incident:${IN_ID}` })
    .where('CID', '=', CID)
    .execute();
  return { IN_ID, CID };
}

/** Members of a new incident: its channel's members, the incident's, and the timeline. */
export async function insertMembers(
  db: Kysely<DB>,
  incident: { IN_ID: number; CID: number; E_ID: number },
  members: readonly IncidentMember[],
  at: number,
): Promise<void> {
  if (members.length === 0) return;
  const { IN_ID, CID, E_ID } = incident;
  await db
    .insertInto('channel_member')
    .values(members.map((m) => ({ CID, UserID: m.U_ID, E_ID, Priority: m.Priority })))
    .execute();
  await db
    .insertInto('incident_member')
    .values(members.map((m) => ({ IN_ID, U_ID: m.U_ID, E_ID, JoinedAt: at })))
    .execute();
  await logChanges(db, IN_ID, members, at, MemberChanges.joined);
}

/**
 * Puts a user into an open incident. True when this call did it: the incident was open and the user
 * not in it. The update of the open incident row orders this against a close (PostgreSQL locks it).
 */
export function recordJoined(
  db: Kysely<DB>,
  incident: { IN_ID: number; CID: number; E_ID: number },
  member: IncidentMember,
  at: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { IN_ID, CID, E_ID } = incident;
    if (!(await updateOpen(trx, IN_ID, null))) return false;
    const added = await trx
      .insertInto('incident_member')
      .values({ IN_ID, U_ID: member.U_ID, E_ID, JoinedAt: at })
      .onConflict((oc) => oc.columns(['IN_ID', 'U_ID']).doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .insertInto('channel_member')
      .values({ CID, UserID: member.U_ID, E_ID, Priority: member.Priority })
      .onConflict((oc) => oc.columns(['CID', 'UserID']).doNothing())
      .execute();
    await logChanges(trx, IN_ID, [member], at, MemberChanges.joined);
    return true;
  });
}

/** Takes a user out of an open incident. True when this call did it. */
export function recordLeft(
  db: Kysely<DB>,
  incident: { IN_ID: number; CID: number },
  member: { U_ID: number; UserName: string },
  at: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { IN_ID, CID } = incident;
    if (!(await updateOpen(trx, IN_ID, null))) return false;
    const removed = await trx
      .deleteFrom('incident_member')
      .where('IN_ID', '=', IN_ID)
      .where('U_ID', '=', member.U_ID)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return false;
    await trx.deleteFrom('channel_member').where('CID', '=', CID).where('UserID', '=', member.U_ID).execute();
    await logChanges(trx, IN_ID, [member], at, MemberChanges.left);
    return true;
  });
}

/**
 * Closes an open incident: its members get a `left` entry at the close (they stay its members at
 * the close), its channel is deleted. False when it was closed already (by another call).
 */
export async function recordClosed(
  db: Kysely<DB>,
  incident: { IN_ID: number; CID: number },
  at: number,
): Promise<number[] | null> {
  const { IN_ID, CID } = incident;
  if (!(await updateOpen(db, IN_ID, at))) return null;
  const members = await db
    .selectFrom('incident_member')
    .leftJoin('terminal_user', 'terminal_user.UserID', 'incident_member.U_ID')
    .select(['incident_member.U_ID', 'terminal_user.UserName'])
    .where('incident_member.IN_ID', '=', IN_ID)
    .execute();
  const left = members.map((m) => ({ U_ID: m.U_ID, UserName: m.UserName ?? '' }));
  await logChanges(db, IN_ID, left, at, MemberChanges.left);
  await db.deleteFrom('channel_member').where('CID', '=', CID).execute();
  await db.deleteFrom('channel').where('CID', '=', CID).execute();
  return members.map((m) => m.U_ID);
}

/** The open incidents user `U_ID` is a member of (a terminal that logs in again is regrouped into them). */
export function openMembershipsOf(
  db: Kysely<DB>,
  U_ID: number,
): Promise<{ IN_ID: number; CID: number; E_ID: number; Name: string }[]> {
  return db
    .selectFrom('incident_member as m')
    .innerJoin('incident as i', 'i.IN_ID', 'm.IN_ID')
    .select(['i.IN_ID', 'i.CID', 'i.E_ID', 'i.Name'])
    .where('m.U_ID', '=', U_ID)
    .where('i.ClosedAt', 'is', null)
    .orderBy('m.JoinedAt', 'desc')
    .execute();
}
