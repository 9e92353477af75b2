import {
  ChannelLogActions,
  MessageKeys,
  type ChannelRow,
  type CreateWebChannel,
  type SaveChannel,
  type UpdateChannel,
  type bChangeRoomSchema,
} from '@intercom/contract';
import type { Updateable } from 'kysely';
import type { z } from 'zod';
import type { ChannelTable } from '../../db/schema.js';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import { assertNameFree, assertSwitchAllowed, channelInScope, channelType, channelUsers } from './channelRules.js';
import {
  deleteChannel,
  findChannel,
  findChannels,
  insertChannel,
  insertMembers,
  memberPriorities,
  updateChannels,
} from './channelRepository.js';

const bit = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** A unique-constraint race (two creates of one name at once) ends as the same 4009 as the check. */
function nameSafe<T>(name: string | undefined, work: () => Promise<T>): Promise<T> {
  return withUniqueConflict(MessageKeys.nameExists, work, name ? { name } : undefined);
}

async function reload(ctx: ServiceContext, id: number): Promise<ChannelRow> {
  const channel = await findChannel(ctx.db, ctx.scope, id);
  if (!channel) throw AppError.notFound();
  return channel;
}

/**
 * SaveChannel (no members) and CreateWebChannel (with members): every rule of SPEC.md section 5,
 * then the channel, its members and the log row in one transaction.
 */
export async function createChannel(ctx: ServiceContext, input: SaveChannel | CreateWebChannel): Promise<ChannelRow> {
  const E_ID = enterpriseOf(ctx.scope, input.eid);
  const CTypeID = await channelType(ctx, E_ID, input.ctypeid, 'ctypeid');
  await assertSwitchAllowed(ctx, E_ID, { video: input.videoEnable, record: input.record });
  await assertNameFree(ctx.db, E_ID, input.cname);
  const members = 'uids' in input ? await channelUsers(ctx.db, ctx.scope, E_ID, input.uids) : new Map<number, number>();
  const memberPriority = 'memberPriority' in input ? input.memberPriority : undefined;
  const CID = await nameSafe(input.cname, () =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await insertChannel(trx, {
        E_ID,
        CName: input.cname,
        CTypeID,
        Note: input.note ?? '',
        Priority: input.priority ?? 0,
        VideoEnable: input.videoEnable ? 1 : 0,
        Record: input.record ? 1 : 0,
        CreatedAt: ctx.clock.now(),
      });
      await insertMembers(
        trx,
        [...members].map(([UserID, level]) => ({ CID: id, UserID, E_ID, Priority: memberPriority ?? level })),
      );
      await logChange(trx, ctx, {
        E_ID,
        Action: ChannelLogActions.channelCreate,
        Target: input.cname,
        Summary: { CID: id, CTypeID, Priority: input.priority ?? 0, members: members.size },
      });
      return id;
    }),
  );
  if (members.size > 0) ctx.events.notify('channelsChanged', { E_ID, UserIDs: [...members.keys()] });
  return reload(ctx, CID);
}

/** UpdateChannel and ChangeChannelName: absent fields stay; the log row holds what changed. */
export async function updateChannel(ctx: ServiceContext, input: UpdateChannel): Promise<ChannelRow> {
  const before = await channelInScope(ctx.db, ctx.scope, input.cid, input.eid);
  const set: Updateable<ChannelTable> = {
    CName: input.cname,
    Note: input.note,
    Priority: input.priority,
    VideoEnable: bit(input.videoEnable),
    Record: bit(input.record),
  };
  if (input.ctypeid !== undefined && input.ctypeid !== before.CTypeID) {
    set.CTypeID = await channelType(ctx, before.E_ID, input.ctypeid, 'ctypeid');
  }
  await assertSwitchAllowed(ctx, before.E_ID, {
    video: input.videoEnable === true && before.VideoEnable === 0,
    record: input.record === true && before.Record === 0,
  });
  if (input.cname !== undefined && input.cname !== before.CName) {
    await assertNameFree(ctx.db, before.E_ID, input.cname, before.CID);
  }
  const changes = changesOf(before as unknown as Record<string, unknown>, set as Record<string, unknown>);
  if (Object.keys(changes).length === 0) return before;
  const values = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  const renameOnly = Object.keys(changes).length === 1 && 'CName' in changes;
  await nameSafe(input.cname, () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateChannels(trx, [before.CID], values);
      await logChange(trx, ctx, {
        E_ID: before.E_ID,
        Action: renameOnly ? ChannelLogActions.channelRename : ChannelLogActions.channelUpdate,
        Target: before.CName,
        Summary: changes,
      });
    }),
  );
  if ('CName' in changes) await tellMembers(ctx, before);
  return reload(ctx, before.CID);
}

/** The channel's members (as they are now) see its name or its existence change in their channel lists. */
async function tellMembers(ctx: ServiceContext, channel: { CID: number; E_ID: number }): Promise<void> {
  const members = await memberPriorities(ctx.db, channel.CID);
  if (members.size > 0) ctx.events.notify('channelsChanged', { E_ID: channel.E_ID, UserIDs: [...members.keys()] });
}

/** DeleteChannel: the channel and its memberships; recordings stay (they name the channel by id). */
export async function removeChannel(ctx: ServiceContext, cid: number, eid?: number): Promise<void> {
  const channel = await channelInScope(ctx.db, ctx.scope, cid, eid);
  const members = await memberPriorities(ctx.db, channel.CID);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteChannel(trx, channel.CID);
    await logChange(trx, ctx, {
      E_ID: channel.E_ID,
      Action: ChannelLogActions.channelDelete,
      Target: channel.CName,
      Summary: { CID: channel.CID, CTypeID: channel.CTypeID, members: channel.MemberCount },
    });
  });
  ctx.events.notify('membersRemoved', { E_ID: channel.E_ID, CID: channel.CID, UserIDs: null });
  if (members.size > 0) ctx.events.notify('channelsChanged', { E_ID: channel.E_ID, UserIDs: [...members.keys()] });
}

/** SwitchRecord: on needs the enterprise's RecordEnable; off always works. */
export async function switchRecord(ctx: ServiceContext, input: { eid?: number; cid: number; record: boolean }) {
  const channel = await channelInScope(ctx.db, ctx.scope, input.cid, input.eid);
  const Record = input.record ? 1 : 0;
  if (Record !== channel.Record) {
    await assertSwitchAllowed(ctx, channel.E_ID, { record: input.record });
    await ctx.db.transaction().execute(async (trx) => {
      await updateChannels(trx, [channel.CID], { Record });
      await logChange(trx, ctx, {
        E_ID: channel.E_ID,
        Action: ChannelLogActions.channelRecord,
        Target: channel.CName,
        Summary: { Record: [channel.Record, Record] },
      });
    });
  }
  return { ...channel, Record };
}

/** BChangeRoom: priority and/or type of several channels, all or nothing; one log row per enterprise. */
export async function batchChangeRooms(ctx: ServiceContext, input: z.infer<typeof bChangeRoomSchema>) {
  const channels = await findChannels(ctx.db, ctx.scope, input.cids);
  if (channels.length !== input.cids.length) throw AppError.notFound();
  const byEnterprise = new Map<number, ChannelRow[]>();
  for (const c of channels) byEnterprise.set(c.E_ID, [...(byEnterprise.get(c.E_ID) ?? []), c]);
  if (input.typeid !== undefined) {
    for (const E_ID of byEnterprise.keys()) await channelType(ctx, E_ID, input.typeid, 'typeid');
  }
  const set: Updateable<ChannelTable> = {};
  if (input.priority !== undefined) set.Priority = input.priority;
  if (input.typeid !== undefined) set.CTypeID = input.typeid;
  await ctx.db.transaction().execute(async (trx) => {
    await updateChannels(trx, input.cids, set);
    for (const [E_ID, group] of byEnterprise) {
      await logChange(trx, ctx, {
        E_ID,
        Action: ChannelLogActions.channelBatchChange,
        Target: group.map((c) => c.CName).join(','),
        Summary: { CIDs: group.map((c) => c.CID), before: group.map((c) => [c.Priority, c.CTypeID]), ...set },
      });
    }
  });
  return { changed: channels.length };
}
