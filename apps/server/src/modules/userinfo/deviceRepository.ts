import type { DeviceRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, DeviceTable } from '../../db/schema.js';
import { insertReturningId, updateById } from '../../db/byId.js';
import type { Scope } from '../../tenancy/scope.js';
import { withDeviceChannels } from './deviceChannels.js';

const ROW = [
  'D_ID',
  'E_ID',
  'DeviceCode',
  'ICCID',
  'NickName',
  'Priority',
  'OSID',
  'OSName',
  'UType',
  'Remark',
  'UserID',
  'UserName',
  'MobilePhone',
  'CreatedAt',
] as const;

/**
 * One inventory record of the scope with its user and the user's channels, or undefined (outside the
 * scope is absent).
 */
export async function findDevice(db: Kysely<DB>, scope: Scope, id: number): Promise<DeviceRow | undefined> {
  const row = await db
    .selectFrom('device_view')
    .select(ROW)
    .where('D_ID', '=', id)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
  if (!row) return undefined;
  const [complete] = await withDeviceChannels(db, [row]);
  return complete;
}

export function insertDevice(db: Kysely<DB>, values: Insertable<DeviceTable>): Promise<number> {
  return insertReturningId(db, 'device', 'D_ID', values);
}

export function updateDevice(db: Kysely<DB>, id: number, values: Updateable<DeviceTable>): Promise<void> {
  return updateById(db, 'device', 'D_ID', id, values);
}

export async function deleteDevice(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('device').where('D_ID', '=', id).execute();
}
