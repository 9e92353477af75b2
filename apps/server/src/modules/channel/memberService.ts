import {
  ChannelLogActions,
  MessageKeys,
  type MemberChange,
  type MemberChangeResult,
  type RoomChange,
  type bChangeMemPriSchema,
  type changeMemPrioritySchema,
} from '@intercom/contract';
import type { z } from 'zod';
import { AppError } from '../../http/AppError.js';
import { findUser } from '../userinfo/index.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { channelInScope, channelUsers } from './channelRules.js';
import {
  deleteMembers,
  findChannels,
  insertMembers,
  leaveRooms,
  memberPriorities,
  roomsOf,
  setMemberPriority,
  setRoomPriority,
} from './channelRepository.js';

/** Ids in a log summary: enough to see what happened, never a 5,000-id row. */
const SAMPLE = 50;
const sample = (ids: readonly number[]) => (ids.length > SAMPLE ? [...ids.slice(0, SAMPLE), '…'] : ids);

/**
 * CMemberChange: set, add or remove members of one channel in one transaction with batched
 * inserts. Users are checked first (all in scope, all of the channel's enterprise).
 */
export async function changeMembers(ctx: ServiceContext, input: MemberChange): Promise<MemberChangeResult> {
  const channel = await channelInScope(ctx.db, ctx.scope, input.cid, input.eid);
  const users = await channelUsers(ctx.db, ctx.scope, channel.E_ID, input.uids);
  const current = await memberPriorities(ctx.db, channel.CID);
  const wanted = new Set(input.uids);
  const toAdd = input.action === 'remove' ? [] : input.uids.filter((id) => !current.has(id));
  const toRemove =
    input.action === 'remove'
      ? input.uids.filter((id) => current.has(id))
      : input.action === 'set'
        ? [...current.keys()].filter((id) => !wanted.has(id))
        : [];
  const priority = input.priority;
  const toUpdate =
    input.action === 'remove' || priority === undefined
      ? []
      : input.uids.filter((id) => current.has(id) && current.get(id) !== priority);
  if (toAdd.length + toRemove.length + toUpdate.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await deleteMembers(trx, channel.CID, toRemove);
      await insertMembers(
        trx,
        toAdd.map((UserID) => ({
          CID: channel.CID,
          UserID,
          E_ID: channel.E_ID,
          Priority: priority ?? users.get(UserID) ?? 0,
        })),
      );
      if (priority !== undefined) await setMemberPriority(trx, channel.CID, toUpdate, priority);
      await logChange(trx, ctx, {
        E_ID: channel.E_ID,
        Action: ChannelLogActions.channelMembers,
        Target: channel.CName,
        Summary: {
          action: input.action,
          before: current.size,
          after: current.size + toAdd.length - toRemove.length,
          added: sample(toAdd),
          removed: sample(toRemove),
          ...(toUpdate.length > 0 ? { priority, updated: sample(toUpdate) } : {}),
        },
      });
    });
  }
  if (toRemove.length > 0) {
    ctx.events.notify('membersRemoved', { E_ID: channel.E_ID, CID: channel.CID, UserIDs: toRemove });
  }
  if (toAdd.length + toRemove.length > 0) {
    ctx.events.notify('channelsChanged', { E_ID: channel.E_ID, UserIDs: [...toAdd, ...toRemove] });
  }
  return {
    CID: channel.CID,
    added: toAdd.length,
    removed: toRemove.length,
    updated: toUpdate.length,
    MemberCount: current.size + toAdd.length - toRemove.length,
  };
}

/** URoomChange: the user is a member of exactly `cids` afterwards (channels of its own enterprise). */
export async function changeRooms(ctx: ServiceContext, input: RoomChange) {
  const user = await findUser(ctx.db, ctx.scope, input.uid);
  if (!user) throw AppError.notFound();
  const channels = await findChannels(ctx.db, ctx.scope, input.cids);
  if (channels.length !== input.cids.length) throw AppError.notFound();
  if (channels.some((c) => c.E_ID !== user.E_ID)) throw AppError.field('cids', MessageKeys.channelMemberEnterprise);
  const current = await roomsOf(ctx.db, user.UserID);
  const wanted = new Set(input.cids);
  const toAdd = input.cids.filter((id) => !current.has(id));
  const toRemove = [...current.keys()].filter((id) => !wanted.has(id));
  const priority = input.priority;
  const toUpdate =
    priority === undefined ? [] : input.cids.filter((id) => current.has(id) && current.get(id) !== priority);
  if (toAdd.length + toRemove.length + toUpdate.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await leaveRooms(trx, user.UserID, toRemove);
      await insertMembers(
        trx,
        toAdd.map((CID) => ({ CID, UserID: user.UserID, E_ID: user.E_ID, Priority: priority ?? user.PriorityLevel })),
      );
      if (priority !== undefined) await setRoomPriority(trx, user.UserID, toUpdate, priority);
      await logChange(trx, ctx, {
        E_ID: user.E_ID,
        Action: ChannelLogActions.userRooms,
        Target: user.MobilePhone,
        Summary: { before: [...current.keys()], after: input.cids, ...(priority !== undefined ? { priority } : {}) },
      });
    });
  }
  for (const CID of toRemove) ctx.events.notify('membersRemoved', { E_ID: user.E_ID, CID, UserIDs: [user.UserID] });
  if (toAdd.length + toRemove.length > 0) {
    ctx.events.notify('channelsChanged', { E_ID: user.E_ID, UserIDs: [user.UserID] });
  }
  return {
    UserID: user.UserID,
    added: toAdd.length,
    removed: toRemove.length,
    updated: toUpdate.length,
    rooms: input.cids,
  };
}

/** ChangeMemPriority: one member of channel `rid`; not a member is 4004. */
export async function changeMemberPriority(ctx: ServiceContext, input: z.infer<typeof changeMemPrioritySchema>) {
  return batchMemberPriority(ctx, { rid: input.rid, uids: [input.uid], priority: input.priority });
}

/** BChangeMemPri: several members of channel `rid`, all or nothing; a uid that is not a member is 4004. */
export async function batchMemberPriority(ctx: ServiceContext, input: z.infer<typeof bChangeMemPriSchema>) {
  const channel = await channelInScope(ctx.db, ctx.scope, input.rid);
  const current = await memberPriorities(ctx.db, channel.CID);
  if (input.uids.some((id) => !current.has(id))) throw AppError.notFound();
  const changed = input.uids.filter((id) => current.get(id) !== input.priority);
  if (changed.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await setMemberPriority(trx, channel.CID, changed, input.priority);
      await logChange(trx, ctx, {
        E_ID: channel.E_ID,
        Action: ChannelLogActions.memberPriority,
        Target: channel.CName,
        Summary: {
          priority: input.priority,
          before: changed.length === 1 ? current.get(changed[0] as number) : undefined,
          uids: sample(changed),
        },
      });
    });
  }
  return { CID: channel.CID, changed: changed.length };
}
