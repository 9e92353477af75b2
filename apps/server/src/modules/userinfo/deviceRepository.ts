import type { DeviceRow } from '@intercom/contract';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, DeviceTable } from '../../db/schema.js';
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

export async function insertDevice(db: Kysely<DB>, values: Insertable<DeviceTable>): Promise<number> {
  const row = await db.insertInto('device').values(values).returning('D_ID').executeTakeFirstOrThrow();
  return row.D_ID;
}

export async function updateDevice(db: Kysely<DB>, id: number, values: Updateable<DeviceTable>): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.updateTable('device').set(values).where('D_ID', '=', id).execute();
}

export async function deleteDevice(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('device').where('D_ID', '=', id).execute();
}
