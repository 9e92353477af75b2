import type { ChannelTreeNode, queryGroupSchema } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema.js';
import type { Scope } from '../../tenancy/scope.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';
import { channelInScope } from './channelRules.js';
import { CHANNEL_ROW } from './channelRepository.js';

type GroupQuery = z.infer<typeof queryGroupSchema>;

const channelNodeId = (cid: number) => `C${cid}`;

/**
 * QueryGroup: the channel tree of SPEC.md section 3, loaded on demand like the organisation tree.
 * Without `cid`: the enterprise's channels (type `video` for a video channel, else `group`).
 * With `cid`: one page of that channel's members (type `other`), highest member priority first.
 * Total: channels, or the channel's members, for paging.
 */
export async function queryGroup(db: Kysely<DB>, scope: Scope, query: GroupQuery) {
  if (query.cid !== undefined) return memberNodes(db, scope, query.cid, query);
  const E_ID = enterpriseOf(scope, query.eid);
  const rows = await db
    .selectFrom('channel_view')
    .select(CHANNEL_ROW)
    .where('E_ID', '=', E_ID)
    .orderBy('CID')
    .execute();
  const nodes = rows.map((c): ChannelTreeNode => {
    const video = c.VideoEnable === 1;
    const count = Number(c.MemberCount);
    return {
      id: channelNodeId(c.CID),
      pId: '0',
      pid: '0',
      name: c.CName,
      text: c.CName,
      type: video ? 'video' : 'group',
      icon: video ? 'channel-video' : 'channel-group',
      eid: c.E_ID,
      cid: c.CID,
      uid: null,
      phone: null,
      priority: c.Priority,
      record: c.Record,
      count,
      isParent: count > 0,
    };
  });
  return { nodes, total: nodes.length };
}

async function memberNodes(db: Kysely<DB>, scope: Scope, cid: number, page: GroupQuery) {
  const channel = await channelInScope(db, scope, cid, page.eid);
  const rows = await db
    .selectFrom('channel_member as m')
    .innerJoin('terminal_user as u', 'u.UserID', 'm.UserID')
    .select(['u.UserID', 'u.UserName', 'u.MobilePhone', 'm.Priority'])
    .where('m.CID', '=', channel.CID)
    .orderBy('m.Priority', 'desc')
    .orderBy('u.UserID')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const parent = channelNodeId(channel.CID);
  const nodes = rows.map((u): ChannelTreeNode => ({
    id: `${parent}-U${u.UserID}`,
    pId: parent,
    pid: parent,
    name: u.UserName,
    text: u.UserName,
    type: 'other',
    icon: 'user',
    eid: channel.E_ID,
    cid: channel.CID,
    uid: u.UserID,
    phone: u.MobilePhone,
    priority: u.Priority,
    record: channel.Record,
    count: 0,
    isParent: false,
  }));
  return { nodes, total: channel.MemberCount };
}
