import {
  SysLogActions,
  type UserRow,
  type batchChangeUsersSchema,
  type capsSwitchSchema,
  type freezeUserSchema,
  type userLocationConfigSchema,
} from '@intercom/contract';
import type { z } from 'zod';
import { AppError } from '../../http/AppError.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { findUser, findUserByPhone, findUsers, updateUser } from './userRepository.js';
import { departmentFor } from './userRules.js';

/** Sets one field of a user with its log row (the old and the new value), in one transaction. */
async function setUserField<F extends 'IsLock' | 'Caps' | 'GPSConfig'>(
  ctx: ServiceContext,
  user: UserRow,
  field: F,
  value: UserRow[F],
  Action: string,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, user.UserID, { [field]: value });
    await logChange(trx, ctx, {
      E_ID: user.E_ID,
      Action,
      Target: user.MobilePhone,
      Summary: { [field]: [user[field], value] },
    });
  });
}

/** `POST /api/UserInfo/FreezeUser`: isLock true freezes the user and ends its terminal sessions. */
export async function freezeUser(ctx: ServiceContext, input: z.infer<typeof freezeUserSchema>): Promise<void> {
  const user = await findUserByPhone(ctx.db, ctx.scope, input.MobilePhone);
  if (!user) throw AppError.notFound();
  const IsLock = input.isLock ? 1 : 0;
  await setUserField(ctx, user, 'IsLock', IsLock, input.isLock ? SysLogActions.userFreeze : SysLogActions.userUnfreeze);
  if (input.isLock) {
    ctx.events.endSessions(user, 'frozen');
  }
  ctx.events.notify('usersChanged', { E_ID: user.E_ID, UserIDs: [user.UserID] });
}

/** `POST /api/UserInfo/UCapsSwitch`: sets the whole capability mask; returns it. */
export async function switchCaps(ctx: ServiceContext, input: z.infer<typeof capsSwitchSchema>) {
  const user = await findUserByPhone(ctx.db, ctx.scope, input.phone);
  if (!user) throw AppError.notFound();
  await setUserField(ctx, user, 'Caps', input.cap, SysLogActions.userCaps);
  ctx.events.notify('usersChanged', { E_ID: user.E_ID, UserIDs: [user.UserID] });
  return { UserID: user.UserID, MobilePhone: user.MobilePhone, Caps: input.cap };
}

/** `POST /api/UserInfo/SaveLocationConfig`: the user's GPS parameter; phoneNumber, when sent, must be the user's. */
export async function saveUserLocationConfig(ctx: ServiceContext, input: z.infer<typeof userLocationConfigSchema>) {
  const user = await findUser(ctx.db, ctx.scope, input.uid);
  if (!user || (input.phoneNumber !== undefined && input.phoneNumber !== user.MobilePhone)) throw AppError.notFound();
  await setUserField(ctx, user, 'GPSConfig', input.scValue, SysLogActions.userLocationConfig);
  ctx.events.notify('usersChanged', { E_ID: user.E_ID, UserIDs: [user.UserID] });
}

/**
 * `POST /api/UserInfo/BChangeUser`: priority and/or department of a selection, all or nothing.
 * One id outside the scope makes it 4004 (Data names `uids`); the department must be in each
 * user's enterprise.
 */
export async function batchChangeUsers(ctx: ServiceContext, input: z.infer<typeof batchChangeUsersSchema>) {
  const users = await findUsers(ctx.db, ctx.scope, input.uids);
  if (users.length !== input.uids.length) throw AppError.notFound();
  const set: { PriorityLevel?: number; OS_ID?: number | null } = {};
  if (input.priValue !== undefined) set.PriorityLevel = input.priValue;
  if (input.mValue !== undefined) {
    for (const enterpriseId of new Set(users.map((u) => u.E_ID))) {
      set.OS_ID = await departmentFor(ctx, enterpriseId, input.mValue, 'mValue');
    }
  }
  const byEnterprise = new Map<number, UserRow[]>();
  for (const user of users) byEnterprise.set(user.E_ID, [...(byEnterprise.get(user.E_ID) ?? []), user]);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('terminal_user').set(set).where('UserID', 'in', input.uids).execute();
    for (const [E_ID, group] of byEnterprise) {
      await logChange(trx, ctx, {
        E_ID,
        Action: SysLogActions.userBatchChange,
        Target: group.map((u) => u.MobilePhone).join(','),
        Summary: { UserIDs: group.map((u) => u.UserID), ...set },
      });
    }
  });
  for (const [E_ID, group] of byEnterprise) {
    ctx.events.notify('usersChanged', { E_ID, UserIDs: group.map((u) => u.UserID) });
  }
  return { changed: users.length };
}
