import { Limits, MessageKeys } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import type { Scope } from '../../tenancy/scope.js';
import { enterpriseConfig } from '../../core/enterpriseOf.js';
import { findUsers } from '../userinfo/index.js';
import { findChannel, nameTaken, type ChannelRecord } from './channelRepository.js';

/** The database and the caller's scope: what the rules that read enterprise settings need. */
type ScopedDb = { db: Kysely<DB>; scope: Scope };

/** Channel types the enterprise allows (its ChannelTypeID list; 106 by default). */
export async function allowedTypes(ctx: ScopedDb, enterpriseId: number): Promise<number[]> {
  const text = await enterpriseConfig(ctx, enterpriseId, 'ChannelTypeID');
  const known: readonly number[] = Limits.audioTypes;
  const types = text
    .split(',')
    .map((p) => Number(p.trim()))
    .filter((n) => known.includes(n));
  return types.length > 0 ? types : [...Limits.defaultChannelTypes];
}

/** The type of a new or edited channel: given and allowed, or the first allowed one when absent. */
export async function channelType(ctx: ScopedDb, enterpriseId: number, typeId: number | undefined, field: string) {
  const allowed = await allowedTypes(ctx, enterpriseId);
  if (typeId === undefined) return allowed[0] as number;
  if (!allowed.includes(typeId)) throw AppError.field(field, MessageKeys.channelTypeNotAllowed);
  return typeId;
}

/** Turning video or recording on needs the enterprise's VideoEnable / RecordEnable to be TRUE. */
export async function assertSwitchAllowed(
  ctx: ScopedDb,
  enterpriseId: number,
  switches: { video?: boolean; record?: boolean; videoField?: string; recordField?: string },
): Promise<void> {
  if (switches.video && (await enterpriseConfig(ctx, enterpriseId, 'VideoEnable')) !== 'TRUE') {
    throw AppError.field(switches.videoField ?? 'videoEnable', MessageKeys.channelVideoDisabled);
  }
  if (switches.record && (await enterpriseConfig(ctx, enterpriseId, 'RecordEnable')) !== 'TRUE') {
    throw AppError.field(switches.recordField ?? 'record', MessageKeys.channelRecordDisabled);
  }
}

/** SPEC.md section 5: channel names are unique in the enterprise ("name already exists", 4009). */
export async function assertNameFree(db: Kysely<DB>, enterpriseId: number, name: string, exceptId = 0): Promise<void> {
  if (await nameTaken(db, enterpriseId, name, exceptId)) throw AppError.conflict(MessageKeys.nameExists, { name });
}

/** A channel of the scope (and of `eid` when given), else 4004. */
export async function channelInScope(db: Kysely<DB>, scope: Scope, cid: number, eid?: number): Promise<ChannelRecord> {
  const channel = await findChannel(db, scope, cid);
  if (!channel || (eid !== undefined && channel.E_ID !== eid)) throw AppError.notFound();
  return channel;
}

const LOOKUP_CHUNK = 1000;

/**
 * The users `ids` with their priority, all in the scope (else 4004, as if absent) and all of the
 * channel's enterprise (else 4000 on `field`): channels never span enterprises.
 */
export async function channelUsers(
  db: Kysely<DB>,
  scope: Scope,
  enterpriseId: number,
  ids: readonly number[],
  field = 'uids',
): Promise<Map<number, number>> {
  const users = new Map<number, number>();
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    for (const user of await findUsers(db, scope, ids.slice(i, i + LOOKUP_CHUNK))) {
      if (user.E_ID !== enterpriseId) throw AppError.field(field, MessageKeys.channelMemberEnterprise);
      users.set(user.UserID, user.PriorityLevel);
    }
  }
  if (users.size !== ids.length) throw AppError.notFound();
  return users;
}
