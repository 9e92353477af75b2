import { UserImportLimits } from '@intercom/contract';
import type { Kysely, Selectable } from 'kysely';
import type { DB, UserTable } from '../../db/schema.js';
import { listUserTypes } from '../gisType/index.js';
import { organsOf } from '../organ/index.js';

const PART = 500;

function parts<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += PART) out.push(items.slice(i, i + PART));
  return out;
}

/** The columns of a user the import may match: what an import compares and can change. */
const KNOWN = [
  'UserID',
  'E_ID',
  'OS_ID',
  'UserName',
  'MobilePhone',
  'ICCID',
  'UType',
  'PriorityLevel',
  'Remark',
  'PasswordHash',
] as const;

/** A user the import may match, with what an import can change. */
export type KnownUser = Pick<Selectable<UserTable>, (typeof KNOWN)[number]>;

/** Users with these phones anywhere on the platform (phones are unique accounts). */
export async function usersWithPhones(db: Kysely<DB>, phones: readonly string[]): Promise<Map<string, KnownUser>> {
  const found = new Map<string, KnownUser>();
  for (const part of parts(phones)) {
    const rows = await db.selectFrom('terminal_user').select(KNOWN).where('MobilePhone', 'in', part).execute();
    for (const row of rows) found.set(row.MobilePhone, row);
  }
  return found;
}

/** Holders of these names in the enterprise: name → UserID. */
export async function nameHolders(
  db: Kysely<DB>,
  E_ID: number,
  names: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const part of parts(names)) {
    const rows = await db
      .selectFrom('terminal_user')
      .select(['UserName', 'UserID'])
      .where('E_ID', '=', E_ID)
      .where('UserName', 'in', part)
      .execute();
    for (const row of rows) found.set(row.UserName, row.UserID);
  }
  return found;
}

/** Where these ICCIDs are: the user holding each, and its inventory record. */
export async function iccidHolders(db: Kysely<DB>, iccids: readonly string[]) {
  const users = new Map<string, number>();
  const devices = new Map<string, { E_ID: number; UserID: number | null }>();
  for (const part of parts(iccids)) {
    const [u, d] = await Promise.all([
      db.selectFrom('terminal_user').select(['ICCID', 'UserID']).where('ICCID', 'in', part).execute(),
      db.selectFrom('device').select(['ICCID', 'E_ID', 'UserID']).where('ICCID', 'in', part).execute(),
    ]);
    for (const row of u) if (row.ICCID) users.set(row.ICCID, row.UserID);
    for (const row of d) devices.set(row.ICCID, { E_ID: row.E_ID, UserID: row.UserID });
  }
  return { users, devices };
}

/** Departments of the enterprise by path (`Sales/North`, names as stored, joined by `/`). */
export async function departmentPaths(db: Kysely<DB>, E_ID: number): Promise<Map<string, number>> {
  const organs = await organsOf(db, E_ID);
  const byId = new Map(organs.map((o) => [o.OSID, o]));
  const pathOf = (id: number, depth = 0): string => {
    const organ = byId.get(id);
    if (!organ) return '';
    const parent = depth < 64 && organ.OSParentID !== 0 ? pathOf(organ.OSParentID, depth + 1) : '';
    return parent ? `${parent}${UserImportLimits.departmentSeparator}${organ.OSName}` : organ.OSName;
  };
  return new Map(organs.map((o) => [pathOf(o.OSID), o.OSID]));
}

/** Channels of the enterprise by name (the first one when two share a name). */
export async function channelsByName(db: Kysely<DB>, E_ID: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('channel')
    .select(['CID', 'CName'])
    .where('E_ID', '=', E_ID)
    .orderBy('CID')
    .execute();
  const found = new Map<string, number>();
  for (const row of rows) if (!found.has(row.CName)) found.set(row.CName, row.CID);
  return found;
}

/** User types of the enterprise by id text and by name → id. */
export async function userTypesByKey(db: Kysely<DB>, E_ID: number): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const type of await listUserTypes(db, E_ID)) {
    found.set(String(type.ID), type.ID);
    if (!found.has(type.Name)) found.set(type.Name, type.ID);
  }
  return found;
}

/** Channel memberships of these users: UserID → CIDs. */
export async function membershipsOf(db: Kysely<DB>, userIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const found = new Map<number, Set<number>>();
  for (const part of parts(userIds)) {
    const rows = await db.selectFrom('channel_member').select(['UserID', 'CID']).where('UserID', 'in', part).execute();
    for (const row of rows) {
      const set = found.get(row.UserID) ?? new Set<number>();
      set.add(row.CID);
      found.set(row.UserID, set);
    }
  }
  return found;
}
