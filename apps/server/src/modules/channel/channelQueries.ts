import type { ChannelBrief, ChannelMemberRow, QueryCMember, queryChannelSchema } from '@intercom/contract';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import { containsPattern } from '../../generic/textSearch.js';
import { AppError } from '../../http/AppError.js';
import type { Scope } from '../../tenancy/scope.js';
import { organsOf, subtreeIds } from '../organ/index.js';
import { findUser } from '../userinfo/index.js';
import { findChannelRef } from './channelRepository.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';

type QueryChannel = z.infer<typeof queryChannelSchema>;

/** QueryChannel: channels of an enterprise; with `uid`, of that user's enterprise with IsMember. */
export async function queryChannels(db: Kysely<DB>, scope: Scope, query: QueryChannel) {
  let E_ID = enterpriseOf(scope, query.eid);
  const uid = query.uid;
  if (uid !== undefined) {
    const user = await findUser(db, scope, uid);
    if (!user || (query.eid !== undefined && user.E_ID !== query.eid)) throw AppError.notFound();
    E_ID = user.E_ID;
  }
  let base = db
    .selectFrom('channel_view as c')
    .leftJoin('channel_member as m', (join) => join.onRef('m.CID', '=', 'c.CID').on('m.UserID', '=', uid ?? 0))
    .where('c.E_ID', '=', E_ID);
  if (query.search) base = base.where(sql<SqlBool>`lower(c."CName") like ${containsPattern(query.search)} escape '\\'`);
  if (uid !== undefined && query.onlyMember) base = base.where('m.UserID', 'is not', null);
  const [rows, count] = await Promise.all([
    base
      .select([
        'c.CID',
        'c.E_ID',
        'c.CName',
        'c.CTypeID',
        'c.Priority',
        'c.VideoEnable',
        'c.Record',
        'c.MemberCount',
        sql<number>`case when m."UserID" is null then 0 else 1 end`.as('IsMember'),
        'm.Priority as MemberPriority',
      ])
      .orderBy('c.CID')
      .limit(query.pageSize)
      .offset(query.pageIndex * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  const data: ChannelBrief[] = rows.map(({ IsMember, MemberPriority, ...row }) => ({
    ...row,
    MemberCount: Number(row.MemberCount),
    ...(uid !== undefined ? { IsMember: Number(IsMember), MemberPriority } : {}),
  }));
  return { rows: data, total: Number(count?.n ?? 0) };
}

const ORDER_COLUMNS = {
  UserID: 'u.UserID',
  UserName: 'u.UserName',
  MobilePhone: 'u.MobilePhone',
  OSName: 'o.OSName',
  Priority: 'm.Priority',
} as const;

/**
 * QueryCMember: one page of members (or non-members, or everybody with IsMember) of a channel.
 * Members come through the channel_member primary key (CID, UserID), so a page of a 5,000-member
 * channel reads one index range, not the enterprise's users.
 */
export async function queryMembers(db: Kysely<DB>, scope: Scope, query: QueryCMember) {
  const channel = await findChannelRef(db, scope, query.cid);
  if (!channel) throw AppError.notFound();
  const CID = channel.CID;
  let base =
    query.members === 'in'
      ? db
          .selectFrom('channel_member as m')
          .innerJoin('terminal_user as u', 'u.UserID', 'm.UserID')
          .where('m.CID', '=', CID)
      : db
          .selectFrom('terminal_user as u')
          .leftJoin('channel_member as m', (join) => join.on('m.CID', '=', CID).onRef('m.UserID', '=', 'u.UserID'))
          .where('u.E_ID', '=', channel.E_ID);
  if (query.members === 'out') base = base.where('m.UserID', 'is', null);
  if (query.search) {
    const pattern = containsPattern(query.search);
    base = base.where(
      sql<SqlBool>`(lower(u."UserName") like ${pattern} escape '\\' or u."MobilePhone" like ${pattern} escape '\\')`,
    );
  }
  if (query.OS_ID !== undefined) {
    const organId = query.OS_ID;
    if (organId === 0) base = base.where('u.OS_ID', 'is', null);
    else {
      const organs = await organsOf(db, channel.E_ID);
      if (!organs.some((o) => o.OSID === organId)) throw AppError.notFound();
      base = base.where('u.OS_ID', 'in', subtreeIds(organs, organId));
    }
  }
  const direction = query.desc ? 'desc' : 'asc';
  // Unfiltered members are counted on the primary key alone (every member row has its user).
  const counted =
    query.members === 'in' && !query.search && query.OS_ID === undefined
      ? db
          .selectFrom('channel_member')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('CID', '=', CID)
          .executeTakeFirst()
      : base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const [rows, count] = await Promise.all([
    base
      .leftJoin('organ as o', 'o.OSID', 'u.OS_ID')
      .select([
        'u.UserID',
        'u.E_ID',
        'u.UserName',
        'u.MobilePhone',
        'u.OS_ID',
        'o.OSName',
        'u.UType',
        'u.IsLock',
        'u.PriorityLevel as UserPriority',
        sql<number>`case when m."UserID" is null then 0 else 1 end`.as('IsMember'),
        'm.Priority',
      ])
      .orderBy(ORDER_COLUMNS[query.orderField], direction)
      .orderBy('u.UserID', direction)
      .limit(query.pageSize)
      .offset(query.pageIndex * query.pageSize)
      .execute(),
    counted,
  ]);
  const data: ChannelMemberRow[] = rows.map((r) => ({ ...r, IsMember: Number(r.IsMember) }));
  return { rows: data, total: Number(count?.n ?? 0), channel };
}
