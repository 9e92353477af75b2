import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * `rids` of SPEC.md 3 (Device/SIM mapping): the channels the device's user belongs to, by channel id,
 * with their names in the same order, read from the memberships for one page of device rows. A free
 * device (no user) has none. Read-only: memberships change on the channel and user screens.
 */
export async function withDeviceChannels<T extends { UserID?: unknown }>(
  db: Kysely<DB>,
  rows: T[],
): Promise<(T & { rids: number[]; ChannelNames: string[] })[]> {
  const users = [...new Set(rows.map((row) => row.UserID).filter((id): id is number => typeof id === 'number'))];
  const byUser = new Map<number, { CID: number; CName: string }[]>();
  if (users.length > 0) {
    const memberships = await db
      .selectFrom('channel_member as m')
      .innerJoin('channel as c', 'c.CID', 'm.CID')
      .select(['m.UserID', 'c.CID', 'c.CName'])
      .where('m.UserID', 'in', users)
      .orderBy('c.CID')
      .execute();
    for (const m of memberships) {
      const list = byUser.get(m.UserID) ?? [];
      list.push({ CID: m.CID, CName: m.CName });
      byUser.set(m.UserID, list);
    }
  }
  return rows.map((row) => {
    const channels = typeof row.UserID === 'number' ? (byUser.get(row.UserID) ?? []) : [];
    return { ...row, rids: channels.map((c) => c.CID), ChannelNames: channels.map((c) => c.CName) };
  });
}
