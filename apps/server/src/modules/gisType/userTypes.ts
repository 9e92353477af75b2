import { MessageKeys, type UserType } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';

/** The built-in type every enterprise has; others are the enterprise's `user` type configs. */
export const DEFAULT_USER_TYPE: UserType = { ID: 0, Name: 'default', Option: '' };

/** `GET /api/UserInfo/GetMyType`: the user types of an enterprise (type configs of kind `user`). */
export async function listUserTypes(db: Kysely<DB>, enterpriseId: number): Promise<UserType[]> {
  const rows = await db
    .selectFrom('gis_type')
    .select(['T_ID', 'Name', 'Option'])
    .where('E_ID', '=', enterpriseId)
    .where('Kind', '=', 'user')
    .orderBy('T_ID')
    .execute();
  return [DEFAULT_USER_TYPE, ...rows.map((r) => ({ ID: r.T_ID, Name: r.Name, Option: r.Option }))];
}

/** A user type must be 0 or one of the enterprise's user types (4000 user.type_unknown on `field`). */
export async function assertUserType(
  db: Kysely<DB>,
  enterpriseId: number,
  typeId: number,
  field: string,
): Promise<void> {
  if (typeId === 0) return;
  const row = await db
    .selectFrom('gis_type')
    .select('T_ID')
    .where('T_ID', '=', typeId)
    .where('E_ID', '=', enterpriseId)
    .where('Kind', '=', 'user')
    .executeTakeFirst();
  if (!row) throw AppError.field(field, MessageKeys.userTypeUnknown);
}
