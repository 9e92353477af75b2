import { z } from 'zod';
import {
  formBool,
  formId,
  formInt,
  formText,
  idList,
  optionalFormBool,
  optionalFormInt,
  optionalFormText,
} from './formFields.js';
import { Limits } from './limits.js';
import { MessageKeys } from './messages.js';

const INT32_MAX = 2 ** 31 - 1;

/** Limits of channels and members beyond SPEC.md section 9 (docs/api.md, "Channels"). */
export const ChannelLimits = {
  nameMax: Limits.channelNameMax,
  noteMax: 256,
  priorityMin: Limits.channelPriorityMin,
  priorityMax: Limits.channelPriorityMax,
  /** Users one CMemberChange, CreateWebChannel or BChangeMemPri call may name. */
  membersMax: 10_000,
  /** Channels one URoomChange or BChangeRoom call may name. */
  roomsMax: 1_000,
  /** Member nodes of one QueryGroup page. */
  treePageMax: 500,
} as const;

/** Actions written to the system log by channel calls; the console translates `syslog.action.<name>`. */
export const ChannelLogActions = {
  channelCreate: 'channel_create',
  channelUpdate: 'channel_update',
  channelRename: 'channel_rename',
  channelDelete: 'channel_delete',
  channelRecord: 'channel_record',
  channelBatchChange: 'channel_batch_change',
  channelMembers: 'channel_members',
  userRooms: 'user_rooms',
  memberPriority: 'member_priority',
} as const;

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Channel name: trimmed, not empty, at most 20 characters (code points: Chinese names count right). */
export const channelNameField = () => formText(ChannelLimits.nameMax, 1);
const priorityField = () => formInt(ChannelLimits.priorityMin, ChannelLimits.priorityMax);
const optionalPriority = () => optionalFormInt(ChannelLimits.priorityMin, ChannelLimits.priorityMax);
const optionalId = () => optionalFormInt(1, INT32_MAX);

/** One channel as lists and `Entitys/{id}` return it. VideoEnable and Record are 0/1. */
export const channelRowSchema = z.object({
  CID: z.number().int(),
  E_ID: z.number().int(),
  CName: z.string(),
  CTypeID: z.number().int(),
  Note: z.string(),
  Priority: z.number().int(),
  VideoEnable: z.number().int(),
  Record: z.number().int(),
  MemberCount: z.number().int(),
  CreatedAt: z.number().int(),
});
export type ChannelRow = z.infer<typeof channelRowSchema>;

/**
 * `POST /api/THChannel/SaveChannel`: create a channel without members. `eid` defaults to the working
 * enterprise, `ctypeid` to the first type of its ChannelTypeID list.
 */
export const saveChannelSchema = z.object({
  eid: optionalId(),
  cname: channelNameField(),
  ctypeid: optionalFormInt(0, INT32_MAX),
  note: optionalFormText(ChannelLimits.noteMax),
  priority: optionalPriority(),
  videoEnable: optionalFormBool(),
  record: optionalFormBool(),
});
export type SaveChannel = z.infer<typeof saveChannelSchema>;

/**
 * `POST /api/Channel/CreateWebChannel` (form): a channel with its members (`uids`, not empty) in
 * one call. `memberPriority` (0-7) applies to every member; without it each member takes its
 * user's PriorityLevel.
 */
export const createWebChannelSchema = saveChannelSchema.extend({
  uids: idList(ChannelLimits.membersMax, MessageKeys.channelMembersEmpty),
  memberPriority: optionalPriority(),
});
export type CreateWebChannel = z.infer<typeof createWebChannelSchema>;

/** `POST /api/THChannel/UpdateChannel` (form): absent fields stay as they are. */
export const updateChannelSchema = z.object({
  cid: formId(),
  eid: optionalId(),
  cname: channelNameField().optional(),
  ctypeid: optionalFormInt(0, INT32_MAX),
  note: optionalFormText(ChannelLimits.noteMax),
  priority: optionalPriority(),
  videoEnable: optionalFormBool(),
  record: optionalFormBool(),
});
export type UpdateChannel = z.infer<typeof updateChannelSchema>;

/** `POST /api/THChannel/ChangeChannelName`. */
export const changeChannelNameSchema = z.object({ eid: optionalId(), cid: formId(), channelName: channelNameField() });

/** `DELETE /api/THChannel/DeleteChannel?eid=&cid=`. */
export const deleteChannelSchema = z.object({ eid: optionalId(), cid: formId() });

/** `POST /api/Channel/SwitchRecord`: `record` true/false (1/0). */
export const switchRecordSchema = z.object({ eid: optionalId(), cid: formId(), record: formBool() });

/**
 * `POST /api/THChannel/CMemberChange`: `set` makes `uids` the whole member list, `add` adds them
 * (members already in keep their priority unless `priority` is given), `remove` takes them out.
 * All in one transaction; an id outside the scope makes it 4004 and nothing changes.
 */
export const memberChangeSchema = z.object({
  cid: formId(),
  eid: optionalId(),
  action: z.preprocess((v) => (blank(v) ? 'set' : v), z.enum(['set', 'add', 'remove'], { error: MessageKeys.invalid })),
  uids: idList(ChannelLimits.membersMax, MessageKeys.channelMembersEmpty),
  priority: optionalPriority(),
});
export type MemberChange = z.infer<typeof memberChangeSchema>;

/** `POST /api/THChannel/URoomChange`: the user `uid` is a member of exactly `cids` (empty: of none). */
export const roomChangeSchema = z.object({
  uid: formId(),
  cids: idList(ChannelLimits.roomsMax),
  priority: optionalPriority(),
});
export type RoomChange = z.infer<typeof roomChangeSchema>;

/** `POST /api/THChannel/ChangeMemPriority`: member `uid` of channel `rid`. */
export const changeMemPrioritySchema = z.object({ rid: formId(), uid: formId(), priority: priorityField() });

/** `POST /api/THChannel/BChangeMemPri`: several members of channel `rid`; every uid must be a member. */
export const bChangeMemPriSchema = z.object({
  uids: idList(ChannelLimits.membersMax, MessageKeys.required),
  priority: priorityField(),
  rid: formId(),
});

/** `POST /api/THChannel/BChangeRoom`: priority and/or type of several channels; blank leaves it. */
export const bChangeRoomSchema = z
  .object({
    cids: idList(ChannelLimits.roomsMax, MessageKeys.required),
    priority: optionalPriority(),
    typeid: optionalFormInt(0, INT32_MAX),
  })
  .superRefine((v, ctx) => {
    if (v.priority === undefined && v.typeid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['priority'], message: MessageKeys.required });
    }
  });

/** What a member change returns. */
export const memberChangeResultSchema = z.object({
  CID: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  updated: z.number().int(),
  MemberCount: z.number().int(),
});
export type MemberChangeResult = z.infer<typeof memberChangeResultSchema>;

const pageIndex = () => optionalFormInt(0, 1_000_000).default(0);
const pageSize = (fallback: number) => optionalFormInt(1, Limits.maxPageSize).default(fallback);

/**
 * `GET /api/THChannel/QueryChannel`: the channels of an enterprise (`eid`, default the working one).
 * With `uid`: the channels of that user's enterprise, each with IsMember and MemberPriority;
 * `onlyMember=true` keeps the user's channels only.
 */
export const queryChannelSchema = z.object({
  eid: optionalId(),
  uid: optionalId(),
  onlyMember: optionalFormBool(),
  search: optionalFormText(64),
  pageIndex: pageIndex(),
  pageSize: pageSize(Limits.maxPageSize),
});

export const channelBriefSchema = channelRowSchema.omit({ Note: true, CreatedAt: true }).extend({
  IsMember: z.number().int().optional(),
  MemberPriority: z.number().int().nullable().optional(),
});
export type ChannelBrief = z.infer<typeof channelBriefSchema>;

export const MEMBER_ORDER_FIELDS = ['UserID', 'UserName', 'MobilePhone', 'OSName', 'Priority'] as const;

/**
 * `GET /api/THChannel/QueryCMember`: one page of a channel's members (`members=in`, the default),
 * of the enterprise's users who are not members (`out`), or of all its users with IsMember (`all`,
 * for pickers). `search` matches name or phone; `OS_ID` a department with its sub-departments
 * (0: users without a department).
 */
export const queryCMemberSchema = z.object({
  cid: formId(),
  members: z.preprocess((v) => (blank(v) ? 'in' : v), z.enum(['in', 'out', 'all'], { error: MessageKeys.invalid })),
  search: optionalFormText(64),
  OS_ID: optionalFormInt(0, INT32_MAX),
  pageIndex: pageIndex(),
  pageSize: pageSize(Limits.defaultPageSize),
  orderField: z.preprocess(
    (v) => (blank(v) ? 'UserID' : v),
    z.enum(MEMBER_ORDER_FIELDS, { error: MessageKeys.badOrderField }),
  ),
  desc: optionalFormBool().default(false),
});
export type QueryCMember = z.infer<typeof queryCMemberSchema>;

/** A row of QueryCMember. Priority is the member priority (null when not a member). */
export const channelMemberRowSchema = z.object({
  UserID: z.number().int(),
  E_ID: z.number().int(),
  UserName: z.string(),
  MobilePhone: z.string(),
  OS_ID: z.number().int().nullable(),
  OSName: z.string().nullable(),
  UType: z.number().int(),
  IsLock: z.number().int(),
  UserPriority: z.number().int(),
  IsMember: z.number().int(),
  Priority: z.number().int().nullable(),
});
export type ChannelMemberRow = z.infer<typeof channelMemberRowSchema>;

/**
 * `GET /api/THChannel/QueryGroup`: the channel tree, loaded on demand. Without `cid`: one node per
 * channel of the enterprise. With `cid`: one page (`offset`, `limit`) of that channel's members.
 */
export const queryGroupSchema = z.object({
  eid: optionalId(),
  cid: optionalId(),
  offset: optionalFormInt(0, 10_000_000).default(0),
  limit: optionalFormInt(1, ChannelLimits.treePageMax).default(ChannelLimits.treePageMax),
});

/** Channel tree node types: a video channel, a talk channel (group), a member (other). */
export const CHANNEL_NODE_TYPES = ['video', 'group', 'other'] as const;

/**
 * One channel tree node (SPEC.md section 3). Ids are strings unique in the tree: `C<cid>` for a
 * channel, `C<cid>-U<uid>` for a member; pId and pid both name the parent (`0` for channels).
 */
export const channelTreeNodeSchema = z.object({
  id: z.string(),
  pId: z.string(),
  pid: z.string(),
  name: z.string(),
  text: z.string(),
  type: z.enum(CHANNEL_NODE_TYPES),
  icon: z.string(),
  eid: z.number().int(),
  cid: z.number().int(),
  uid: z.number().int().nullable(),
  phone: z.string().nullable(),
  priority: z.number().int(),
  record: z.number().int(),
  count: z.number().int(),
  isParent: z.boolean(),
});
export type ChannelTreeNode = z.infer<typeof channelTreeNodeSchema>;

/**
 * `GET /api/THCustDevice/DispatchNo`: the dispatch seats of an enterprise. Every enabled console
 * account is one seat; its number is `D` followed by the account id, so it never equals a
 * terminal's phone (digits only).
 */
export const dispatchNoQuerySchema = z.object({ eid: optionalId() });
export const dispatchNoSchema = z.object({
  DispatchNo: z.string(),
  A_ID: z.number().int(),
  E_ID: z.number().int(),
  Name: z.string(),
  Role: z.string(),
  Self: z.boolean(),
});
export type DispatchNo = z.infer<typeof dispatchNoSchema>;

export function dispatchNoOf(accountId: number): string {
  return `D${accountId}`;
}
