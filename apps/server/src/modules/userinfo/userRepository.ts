import type { UserBrief, UserRow } from '@intercom/contract';
import { sql, type Insertable, type Kysely, type SqlBool, type Updateable } from 'kysely';
import type { DB, UserTable } from '../../db/schema.js';
import { updateById } from '../../db/byId.js';
import { containsPattern } from '../../generic/textSearch.js';
import type { Scope } from '../../tenancy/scope.js';

export const USER_ROW = [
  'UserID',
  'E_ID',
  'OS_ID',
  'OSName',
  'UserName',
  'MobilePhone',
  'ICCID',
  'UType',
  'PriorityLevel',
  'ExpireAt',
  'IsLock',
  'Caps',
  'GPSConfig',
  'Remark',
  'CreatedAt',
] as const;

const BRIEF = ['UserID', 'E_ID', 'OS_ID', 'UserName', 'MobilePhone', 'UType', 'PriorityLevel', 'IsLock'] as const;

/** The users of the scope as rows (outside the scope is the same as absent). */
function usersOfScope(db: Kysely<DB>, scope: Scope) {
  return db
    .selectFrom('user_view')
    .select(USER_ROW)
    .where('E_ID', 'in', [...scope.enterpriseIds]);
}

/** One user of the scope by id, or undefined. */
export async function findUser(db: Kysely<DB>, scope: Scope, id: number): Promise<UserRow | undefined> {
  return usersOfScope(db, scope).where('UserID', '=', id).executeTakeFirst();
}

/** One user of the scope by phone (the terminal's account), or undefined. */
export async function findUserByPhone(db: Kysely<DB>, scope: Scope, phone: string): Promise<UserRow | undefined> {
  return usersOfScope(db, scope).where('MobilePhone', '=', phone).executeTakeFirst();
}

/** Users of the scope by phone, keyed by phone (chunks of 500 phones per query). */
export async function usersByPhone(
  db: Kysely<DB>,
  scope: Scope,
  phones: readonly string[],
): Promise<Map<string, UserRow>> {
  const found = new Map<string, UserRow>();
  for (let i = 0; i < phones.length; i += 500) {
    const rows = await usersOfScope(db, scope)
      .where('MobilePhone', 'in', phones.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.MobilePhone, row);
  }
  return found;
}

export async function findUsers(db: Kysely<DB>, scope: Scope, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return usersOfScope(db, scope)
    .where('UserID', 'in', [...ids])
    .execute();
}

/** Phones already used anywhere on the platform (phones are terminal accounts, unique everywhere). */
export async function phonesTaken(db: Kysely<DB>, phones: readonly string[], exceptUserId = 0): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await db
    .selectFrom('terminal_user')
    .select('MobilePhone')
    .where('MobilePhone', 'in', [...phones])
    .where('UserID', '<>', exceptUserId)
    .execute();
  return new Set(rows.map((r) => r.MobilePhone));
}

/** Names already used in one enterprise. */
export async function namesTaken(
  db: Kysely<DB>,
  enterpriseId: number,
  names: readonly string[],
  exceptUserId = 0,
): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .selectFrom('terminal_user')
    .select('UserName')
    .where('E_ID', '=', enterpriseId)
    .where('UserName', 'in', [...names])
    .where('UserID', '<>', exceptUserId)
    .execute();
  return new Set(rows.map((r) => r.UserName));
}

/** ICCIDs held by a user or present in the inventory, anywhere on the platform. */
export async function iccidsTaken(db: Kysely<DB>, iccids: readonly string[]): Promise<Set<string>> {
  if (iccids.length === 0) return new Set();
  const [users, devices] = await Promise.all([
    db
      .selectFrom('terminal_user')
      .select('ICCID')
      .where('ICCID', 'in', [...iccids])
      .execute(),
    db
      .selectFrom('device')
      .select('ICCID')
      .where('ICCID', 'in', [...iccids])
      .execute(),
  ]);
  return new Set([...users.map((r) => r.ICCID ?? ''), ...devices.map((r) => r.ICCID)]);
}

export async function insertUsers(db: Kysely<DB>, rows: Insertable<UserTable>[]): Promise<{ UserID: number }[]> {
  if (rows.length === 0) return [];
  return db.insertInto('terminal_user').values(rows).returning('UserID').execute();
}

export function updateUser(db: Kysely<DB>, id: number, values: Updateable<UserTable>): Promise<void> {
  return updateById(db, 'terminal_user', 'UserID', id, values);
}

/** Deletes a user: its SIM returns to the inventory, its channel memberships and its terminal's resume token go. */
export async function deleteUser(db: Kysely<DB>, id: number): Promise<void> {
  await db.updateTable('device').set({ UserID: null }).where('UserID', '=', id).execute();
  await db.deleteFrom('channel_member').where('UserID', '=', id).execute();
  await db.deleteFrom('terminal_resume').where('UserID', '=', id).execute();
  await db.deleteFrom('terminal_user').where('UserID', '=', id).execute();
}

/** `GET /api/UserInfo/Users`: a light page of an enterprise's users (or one user), for pickers. */
export async function userBriefs(
  db: Kysely<DB>,
  enterpriseId: number,
  filter: { userID?: number; OS_ID?: number; name?: string; pageIndex: number; pageSize: number },
): Promise<{ rows: UserBrief[]; total: number }> {
  let base = db.selectFrom('terminal_user').where('E_ID', '=', enterpriseId);
  if (filter.userID !== undefined) base = base.where('UserID', '=', filter.userID);
  if (filter.name) {
    const pattern = containsPattern(filter.name);
    base = base.where(sql<SqlBool>`lower(${sql.ref('UserName')}) like ${pattern} escape '\\'`);
  }
  if (filter.OS_ID !== undefined) {
    const organId = filter.OS_ID;
    base = base.where((eb) => (organId === 0 ? eb('OS_ID', 'is', null) : eb('OS_ID', '=', organId)));
  }
  const [rows, count] = await Promise.all([
    base
      .select(BRIEF)
      .orderBy('UserID')
      .limit(filter.pageSize)
      .offset(filter.pageIndex * filter.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}
