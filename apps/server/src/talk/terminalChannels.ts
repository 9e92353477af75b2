import type { TerminalChannel } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The channels a terminal user is a member of, in its own enterprise, by name, with each one's
 * member count and how many of its members `isOnline` says are online (the `channels` message).
 */
export async function channelsOfUser(
  db: Kysely<DB>,
  user: { U_ID: number; E_ID: number },
  isOnline: (U_ID: number) => boolean,
): Promise<TerminalChannel[]> {
  const rows = await db
    .selectFrom('channel_member as mine')
    .innerJoin('channel as c', 'c.CID', 'mine.CID')
    .innerJoin('channel_member as m', 'm.CID', 'mine.CID')
    .select(['c.CID', 'c.CName', 'm.UserID'])
    .where('mine.UserID', '=', user.U_ID)
    .where('mine.E_ID', '=', user.E_ID)
    .where('c.E_ID', '=', user.E_ID)
    .where('m.E_ID', '=', user.E_ID)
    .execute();
  const channels = new Map<number, TerminalChannel>();
  for (const row of rows) {
    let channel = channels.get(row.CID);
    if (!channel) {
      channel = { cid: row.CID, name: row.CName, online: 0, members: 0 };
      channels.set(row.CID, channel);
    }
    channel.members += 1;
    if (isOnline(row.UserID)) channel.online += 1;
  }
  return [...channels.values()].sort((a, b) => a.name.localeCompare(b.name) || a.cid - b.cid);
}
