import { SYS_CONFIG_DEFAULTS } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Whether a terminal user has video (SPEC.md 8, "only video group members support video"): its
 * enterprise's VideoEnable is TRUE and it is a member of one of that enterprise's video channels.
 */
export async function hasVideoRights(db: Kysely<DB>, user: { U_ID: number; E_ID: number }): Promise<boolean> {
  const config = await db
    .selectFrom('sys_config')
    .select('Value')
    .where('E_ID', '=', user.E_ID)
    .where('Code', '=', 'VideoEnable')
    .executeTakeFirst();
  if ((config?.Value ?? SYS_CONFIG_DEFAULTS.VideoEnable) !== 'TRUE') return false;
  const member = await db
    .selectFrom('channel_member as m')
    .innerJoin('channel as c', 'c.CID', 'm.CID')
    .select('m.CID')
    .where('m.UserID', '=', user.U_ID)
    .where('m.E_ID', '=', user.E_ID)
    .where('c.E_ID', '=', user.E_ID)
    .where('c.VideoEnable', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return member !== undefined;
}

/** A terminal user's enterprise, whatever it is: the caller checks its scope before saying anything. */
export async function terminalUserEnterprise(db: Kysely<DB>, U_ID: number): Promise<number | undefined> {
  const row = await db.selectFrom('terminal_user').select('E_ID').where('UserID', '=', U_ID).executeTakeFirst();
  return row?.E_ID;
}
