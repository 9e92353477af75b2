import {
  Code,
  MessageKeys,
  SysLogActions,
  USER_CAPS_DEFAULT,
  checkPhone,
  parseIccid,
  type FieldError,
  type MapResult,
  type fastMapSchema,
  type mapIccidSchema,
  type noneSeriesMapSchema,
} from '@intercom/contract';
import type { z } from 'zod';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { findUser, findUserByPhone, updateUser, usersByPhone } from './userRepository.js';
import { departmentFor } from './userRules.js';
import { assertIccidFree, bindIccid, unbindIccid } from './simBinding.js';

type Pair = MapResult['pairs'][number];

/** Per-item failures of a list call: 4000 for format, 4004 for unknown users, 4009 for conflicts. */
function failWith(
  code: typeof Code.Validation | typeof Code.NotFound | typeof Code.Conflict,
  errors: FieldError[],
): never {
  throw new AppError(code, errors[0]?.key ?? MessageKeys.validation, undefined, errors);
}

/** Whether each ICCID may go to its user; conflicts as field errors. */
async function conflicts(
  ctx: ServiceContext,
  pairs: { field: string; ICCID: string; user: { UserID: number; E_ID: number } }[],
) {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const pair of pairs) {
    try {
      if (seen.has(pair.ICCID)) throw AppError.conflict(MessageKeys.iccidExists);
      await assertIccidFree(ctx.db, pair.ICCID, pair.user);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push({ field: pair.field, key: error.message });
    }
    seen.add(pair.ICCID);
  }
  return errors;
}

async function bindAll(
  ctx: ServiceContext,
  pairs: Pair[],
  enterpriseOf: Map<number, number>,
  action: string,
): Promise<MapResult> {
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    for (const pair of pairs)
      await bindIccid(trx, { UserID: pair.UserID, E_ID: enterpriseOf.get(pair.UserID) as number }, pair.ICCID, now);
    const byEnterprise = new Map<number, Pair[]>();
    for (const pair of pairs) {
      const E_ID = enterpriseOf.get(pair.UserID) as number;
      byEnterprise.set(E_ID, [...(byEnterprise.get(E_ID) ?? []), pair]);
    }
    for (const [E_ID, group] of byEnterprise) {
      await logChange(trx, ctx, {
        E_ID,
        Action: action,
        Target: group.length === 1 ? (group[0]?.ICCID ?? '') : `${group.length} ICCIDs`,
        Summary: { pairs: group.map((p) => [p.ICCID, p.MobilePhone]) },
      });
    }
  });
  for (const E_ID of new Set(enterpriseOf.values())) {
    ctx.events.notify('usersChanged', {
      E_ID,
      UserIDs: pairs.filter((p) => enterpriseOf.get(p.UserID) === E_ID).map((p) => p.UserID),
    });
  }
  return { pairs };
}

/** `POST /api/UserInfo/MapICCID`: one ICCID onto one user; the user's previous SIM returns to the inventory. */
export async function mapIccid(ctx: ServiceContext, input: z.infer<typeof mapIccidSchema>): Promise<MapResult> {
  const user =
    input.UserID !== undefined
      ? await findUser(ctx.db, ctx.scope, input.UserID)
      : await findUserByPhone(ctx.db, ctx.scope, input.MobilePhone as string);
  if (!user || (input.MobilePhone !== undefined && input.MobilePhone !== user.MobilePhone)) throw AppError.notFound();
  await assertIccidFree(ctx.db, input.ICCID, user);
  const pair = { ICCID: input.ICCID, UserID: user.UserID, UserName: user.UserName, MobilePhone: user.MobilePhone };
  return bindAll(ctx, [pair], new Map([[user.UserID, user.E_ID]]), SysLogActions.iccidMap);
}

/**
 * `POST /api/UserInfo/FastMapICCID`: the ICCIDs in order onto the users without a SIM of the
 * enterprise (or department), oldest first. All or nothing; 4009 device.not_enough_users when
 * fewer such users exist than ICCIDs.
 */
export async function fastMapIccids(ctx: ServiceContext, input: z.infer<typeof fastMapSchema>): Promise<MapResult> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const OS_ID = input.OS_ID === undefined ? undefined : await departmentFor(ctx, E_ID, input.OS_ID);
  const iccids: string[] = [];
  const invalid: FieldError[] = [];
  input.ICCIDs.forEach((value, i) => {
    const parsed = parseIccid(value);
    if ('key' in parsed) invalid.push({ field: `ICCIDs.${i}`, key: parsed.key });
    else iccids.push(parsed.iccid);
  });
  if (invalid.length > 0) failWith(Code.Validation, invalid);
  let query = ctx.db
    .selectFrom('terminal_user')
    .select(['UserID', 'UserName', 'MobilePhone'])
    .where('E_ID', '=', E_ID)
    .where('ICCID', 'is', null);
  if (OS_ID !== undefined && OS_ID !== null) query = query.where('OS_ID', '=', OS_ID);
  const users = await query.orderBy('UserID').limit(iccids.length).execute();
  if (users.length < iccids.length) {
    throw AppError.conflict(MessageKeys.notEnoughUnmapped, { users: users.length, needed: iccids.length });
  }
  const pairs = iccids.map((ICCID, i) => ({ ICCID, ...(users[i] as Omit<Pair, 'ICCID'>) }));
  const errors = await conflicts(
    ctx,
    pairs.map((p, i) => ({ field: `ICCIDs.${i}`, ICCID: p.ICCID, user: { UserID: p.UserID, E_ID } })),
  );
  if (errors.length > 0) failWith(Code.Conflict, errors);
  return bindAll(ctx, pairs, new Map(pairs.map((p) => [p.UserID, E_ID])), SysLogActions.iccidFastMap);
}

/**
 * `POST /api/UserInfo/NoneSeriesMap`: explicit ICCID/phone pairs. All or nothing: 4000 lists
 * malformed items, 4004 phones not in the scope, 4009 ICCIDs in use or repeated.
 */
export async function mapPairs(ctx: ServiceContext, input: z.infer<typeof noneSeriesMapSchema>): Promise<MapResult> {
  const invalid: FieldError[] = [];
  const items: { ICCID: string; phone: string; index: number }[] = [];
  input.pairs.forEach((pair, index) => {
    const parsed = parseIccid(pair.ICCID);
    if ('key' in parsed) invalid.push({ field: `pairs.${index}.ICCID`, key: parsed.key });
    const phoneKey = checkPhone(pair.MobilePhone);
    if (phoneKey) invalid.push({ field: `pairs.${index}.MobilePhone`, key: phoneKey });
    if ('iccid' in parsed && !phoneKey) items.push({ ICCID: parsed.iccid, phone: pair.MobilePhone.trim(), index });
  });
  if (invalid.length > 0) failWith(Code.Validation, invalid);
  const phones = new Set<string>();
  const unknown: FieldError[] = [];
  const repeated: FieldError[] = [];
  const resolved: {
    field: string;
    ICCID: string;
    user: { UserID: number; E_ID: number; UserName: string; MobilePhone: string };
  }[] = [];
  const users = await usersByPhone(ctx.db, ctx.scope, [...new Set(items.map((i) => i.phone))]);
  for (const item of items) {
    const field = `pairs.${item.index}.MobilePhone`;
    if (phones.has(item.phone)) repeated.push({ field, key: MessageKeys.phoneExists });
    phones.add(item.phone);
    const user = users.get(item.phone);
    if (!user) unknown.push({ field, key: MessageKeys.notFound });
    else resolved.push({ field: `pairs.${item.index}.ICCID`, ICCID: item.ICCID, user });
  }
  if (unknown.length > 0) failWith(Code.NotFound, unknown);
  const errors = [...repeated, ...(await conflicts(ctx, resolved))];
  if (errors.length > 0) failWith(Code.Conflict, errors);
  const pairs = resolved.map((r) => ({
    ICCID: r.ICCID,
    UserID: r.user.UserID,
    UserName: r.user.UserName,
    MobilePhone: r.user.MobilePhone,
  }));
  return bindAll(ctx, pairs, new Map(resolved.map((r) => [r.user.UserID, r.user.E_ID])), SysLogActions.iccidPairsMap);
}

/**
 * `POST /api/UserInfo/RecoverDevice`: the user's SIM returns to the inventory (unmapped), the
 * user's GPS parameter and capabilities go back to the defaults, and its terminal sessions end.
 */
export async function recoverDevice(ctx: ServiceContext, phone: string): Promise<void> {
  const user = await findUserByPhone(ctx.db, ctx.scope, phone);
  if (!user) throw AppError.notFound();
  await ctx.db.transaction().execute(async (trx) => {
    await unbindIccid(trx, user.UserID);
    await updateUser(trx, user.UserID, { GPSConfig: '', Caps: USER_CAPS_DEFAULT });
    await logChange(trx, ctx, {
      E_ID: user.E_ID,
      Action: SysLogActions.deviceRecover,
      Target: user.MobilePhone,
      Summary: { ICCID: [user.ICCID, null], GPSConfig: [user.GPSConfig, ''], Caps: [user.Caps, USER_CAPS_DEFAULT] },
    });
  });
  ctx.events.endSessions(user, 'recovered');
  ctx.events.notify('usersChanged', { E_ID: user.E_ID, UserIDs: [user.UserID] });
}
