import { SYS_CONFIG_DEFAULTS, TalkLimits } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface ChannelInfo {
  CID: number;
  E_ID: number;
  CName: string;
  Record: boolean;
}

/** A channel by id, whatever its enterprise: callers check membership or scope before using it. */
export async function channelInfo(db: Kysely<DB>, cid: number): Promise<ChannelInfo | undefined> {
  const row = await db
    .selectFrom('channel')
    .select(['CID', 'E_ID', 'CName', 'Record'])
    .where('CID', '=', cid)
    .executeTakeFirst();
  return row && { CID: row.CID, E_ID: row.E_ID, CName: row.CName, Record: row.Record === 1 };
}

/** The user's member priority in the channel (same enterprise only), or undefined when not a member. */
export async function memberPriority(
  db: Kysely<DB>,
  cid: number,
  user: { U_ID: number; E_ID: number },
): Promise<number | undefined> {
  const row = await db
    .selectFrom('channel_member')
    .select('Priority')
    .where('CID', '=', cid)
    .where('UserID', '=', user.U_ID)
    .where('E_ID', '=', user.E_ID)
    .executeTakeFirst();
  return row?.Priority;
}

/** The enterprise's talk settings: maximum talk time, dispatcher seat priority, recording allowed. */
export async function talkSettings(
  db: Kysely<DB>,
  E_ID: number,
): Promise<{ maxTalkMs: number; dispatchPriority: number; recordEnable: boolean }> {
  // The terminal's (or seat's) own enterprise is the scope here: one read of its three settings.
  const rows = await db
    .selectFrom('sys_config')
    .select(['Code', 'Value'])
    .where('E_ID', '=', E_ID)
    .where('Code', 'in', ['TalkMaxSeconds', 'DispatchPriority', 'RecordEnable'])
    .execute();
  const value = (code: 'TalkMaxSeconds' | 'DispatchPriority' | 'RecordEnable') =>
    rows.find((r) => r.Code === code)?.Value ?? SYS_CONFIG_DEFAULTS[code];
  const [max, priority, record] = [value('TalkMaxSeconds'), value('DispatchPriority'), value('RecordEnable')];
  const seconds = Number(max);
  const level = Number(priority);
  return {
    maxTalkMs: (Number.isInteger(seconds) && seconds > 0 ? seconds : TalkLimits.maxTalkSeconds) * 1000,
    dispatchPriority: Number.isInteger(level) && level >= 0 && level <= 7 ? level : TalkLimits.dispatchPriority,
    recordEnable: record === 'TRUE',
  };
}
