import { MessageKeys } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';

const taken = () => AppError.conflict(MessageKeys.iccidExists);

/**
 * An ICCID can go to a user when no other user holds it and its inventory record (if any) is
 * free and in the user's enterprise. ICCIDs are unique on the platform, so one held elsewhere is
 * "already in use" without saying where.
 */
export async function assertIccidFree(
  db: Kysely<DB>,
  iccid: string,
  user: { UserID: number; E_ID: number },
): Promise<void> {
  const device = await db.selectFrom('device').select(['E_ID', 'UserID']).where('ICCID', '=', iccid).executeTakeFirst();
  if (device && (device.E_ID !== user.E_ID || (device.UserID !== null && device.UserID !== user.UserID))) throw taken();
  const holder = await db.selectFrom('terminal_user').select('UserID').where('ICCID', '=', iccid).executeTakeFirst();
  if (holder && holder.UserID !== user.UserID) throw taken();
}

/**
 * Puts the SIM `iccid` in the user's terminal: the inventory record (created when absent) points
 * to the user, the user's previous SIM returns to the inventory, and the user's ICCID is set.
 * Run inside the caller's transaction, after assertIccidFree.
 */
export async function bindIccid(
  trx: Kysely<DB>,
  user: { UserID: number; E_ID: number },
  iccid: string,
  now = Date.now(),
) {
  await trx
    .updateTable('device')
    .set({ UserID: null })
    .where('UserID', '=', user.UserID)
    .where('ICCID', '<>', iccid)
    .execute();
  const device = await trx
    .selectFrom('device')
    .select(['D_ID', 'E_ID', 'UserID'])
    .where('ICCID', '=', iccid)
    .executeTakeFirst();
  if (!device) {
    await trx
      .insertInto('device')
      .values({
        E_ID: user.E_ID,
        DeviceCode: '',
        ICCID: iccid,
        NickName: '',
        Priority: 0,
        OSID: null,
        UType: 0,
        Remark: '',
        UserID: user.UserID,
        CreatedAt: now,
      })
      .execute();
  } else if (device.E_ID !== user.E_ID || (device.UserID !== null && device.UserID !== user.UserID)) {
    throw taken();
  } else if (device.UserID === null) {
    await trx.updateTable('device').set({ UserID: user.UserID }).where('D_ID', '=', device.D_ID).execute();
  }
  await trx.updateTable('terminal_user').set({ ICCID: iccid }).where('UserID', '=', user.UserID).execute();
}

/** Takes the SIM out of the user's terminal: the record stays in the inventory, unmapped. */
export async function unbindIccid(trx: Kysely<DB>, userId: number): Promise<void> {
  await trx.updateTable('device').set({ UserID: null }).where('UserID', '=', userId).execute();
  await trx.updateTable('terminal_user').set({ ICCID: null }).where('UserID', '=', userId).execute();
}
