import { MessageKeys, SysLogActions, USER_CAPS_DEFAULT, type UserRow, type UserSave } from '@intercom/contract';
import type { Updateable } from 'kysely';
import { hashPassword } from '../../auth/passwords.js';
import type { UserTable } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { assertIccidFree, bindIccid, unbindIccid } from './simBinding.js';
import { assertLicences, reserveLicences } from '../enterprise/index.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import { deleteUser, findUser, insertUsers, namesTaken, phonesTaken, updateUser } from './userRepository.js';
import { conflictOf, departmentFor, withUserConflicts } from './userRules.js';
import { assertUserType } from '../gisType/index.js';

/** `POST /api/UserInfo/Save` and `UpdateUser`: creates (UserID 0) or edits one terminal user. */
export async function saveUser(ctx: ServiceContext, input: UserSave): Promise<UserRow> {
  const UserID = input.UserID === 0 ? await createUser(ctx, input) : await editUser(ctx, input);
  const saved = await findUser(ctx.db, ctx.scope, UserID);
  if (!saved) throw AppError.notFound();
  return saved;
}

async function createUser(ctx: ServiceContext, input: UserSave): Promise<number> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const OS_ID = await departmentFor(ctx, E_ID, input.OS_ID ?? 0);
  const UType = input.UType ?? 0;
  await assertUserType(ctx.db, E_ID, UType, 'UType');
  await assertLicences(ctx.db, E_ID, 1);
  const identity = {
    UserID: 0,
    E_ID,
    MobilePhone: input.MobilePhone as string,
    UserName: input.UserName as string,
    ICCID: input.ICCID || null,
  };
  const conflict = await conflictOf(ctx.db, identity);
  if (conflict) throw AppError.conflict(conflict);
  const now = ctx.clock.now();
  const row = {
    E_ID,
    OS_ID,
    UserName: identity.UserName,
    MobilePhone: identity.MobilePhone,
    ICCID: null,
    UType,
    PriorityLevel: input.PriorityLevel ?? 0,
    ExpireAt: input.ExpireAt ?? null,
    IsLock: 0,
    Caps: input.Caps ?? USER_CAPS_DEFAULT,
    PasswordHash: await hashPassword(input.Password as string, ctx.passwordLogN),
    GPSConfig: input.GPSConfig ?? '',
    Remark: input.Remark ?? '',
    CreatedAt: now,
  };
  const UserID = await withUserConflicts(ctx.db, [identity], () =>
    ctx.db.transaction().execute(async (trx) => {
      await reserveLicences(trx, E_ID, 1);
      const [inserted] = await insertUsers(trx, [row]);
      const id = (inserted as { UserID: number }).UserID;
      if (identity.ICCID) await bindIccid(trx, { UserID: id, E_ID }, identity.ICCID, now);
      const { PasswordHash: _hash, ...logged } = row;
      await logChange(trx, ctx, {
        E_ID,
        Action: SysLogActions.userCreate,
        Target: identity.MobilePhone,
        Summary: { UserID: id, ...logged, ICCID: identity.ICCID },
      });
      return id;
    }),
  );
  ctx.events.notify('usersChanged', { E_ID, UserIDs: [UserID] });
  return UserID;
}

async function editUser(ctx: ServiceContext, input: UserSave): Promise<number> {
  const before = await findUser(ctx.db, ctx.scope, input.UserID);
  if (!before) throw AppError.notFound();
  if (input.E_ID !== undefined && input.E_ID !== before.E_ID)
    throw AppError.field('E_ID', MessageKeys.userEnterpriseFixed);
  const changed = <K extends keyof UserRow>(field: K, value: UserRow[K] | undefined) =>
    value !== undefined && value !== before[field];
  const values: Updateable<UserTable> = {
    UserName: input.UserName,
    MobilePhone: input.MobilePhone,
    UType: input.UType,
    PriorityLevel: input.PriorityLevel,
    ExpireAt: input.ExpireAt,
    GPSConfig: input.GPSConfig,
    Caps: input.Caps,
    Remark: input.Remark,
  };
  if (input.OS_ID !== undefined && changed('OS_ID', input.OS_ID === 0 ? null : input.OS_ID)) {
    values.OS_ID = await departmentFor(ctx, before.E_ID, input.OS_ID);
  }
  if (changed('UType', input.UType)) await assertUserType(ctx.db, before.E_ID, input.UType as number, 'UType');
  if (
    changed('MobilePhone', input.MobilePhone) &&
    (await phonesTaken(ctx.db, [input.MobilePhone as string], before.UserID)).size > 0
  ) {
    throw AppError.conflict(MessageKeys.phoneExists);
  }
  if (
    changed('UserName', input.UserName) &&
    (await namesTaken(ctx.db, before.E_ID, [input.UserName as string], before.UserID)).size > 0
  ) {
    throw AppError.conflict(MessageKeys.nameExists);
  }
  const iccid = input.ICCID === undefined ? undefined : input.ICCID || null;
  if (iccid) await assertIccidFree(ctx.db, iccid, before);
  if (input.Password !== undefined) values.PasswordHash = await hashPassword(input.Password, ctx.passwordLogN);

  const { PasswordHash: newHash, ...visible } = values;
  const summary = changesOf(before, { ...visible, ICCID: iccid });
  if (newHash !== undefined) summary.Password = 'changed';
  const identity = {
    UserID: before.UserID,
    E_ID: before.E_ID,
    MobilePhone: input.MobilePhone ?? before.MobilePhone,
    UserName: input.UserName ?? before.UserName,
    ICCID: iccid === undefined ? before.ICCID : iccid,
  };
  await withUserConflicts(ctx.db, [identity], () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateUser(
        trx,
        before.UserID,
        Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)),
      );
      if (iccid === null && before.ICCID !== null) await unbindIccid(trx, before.UserID);
      if (iccid && iccid !== before.ICCID) await bindIccid(trx, before, iccid, ctx.clock.now());
      await logChange(trx, ctx, {
        E_ID: before.E_ID,
        Action: SysLogActions.userUpdate,
        Target: before.MobilePhone,
        Summary: summary,
      });
    }),
  );
  if (newHash !== undefined || changed('MobilePhone', input.MobilePhone)) {
    ctx.events.endSessions(before, 'password');
  }
  ctx.events.notify('usersChanged', { E_ID: before.E_ID, UserIDs: [before.UserID] });
  return before.UserID;
}

/** `DELETE /api/UserInfo/Delete/{id}`: frees a licence; the SIM returns to the inventory. */
export async function removeUser(ctx: ServiceContext, id: number): Promise<void> {
  const user = await findUser(ctx.db, ctx.scope, id);
  if (!user) throw AppError.notFound();
  await ctx.db.transaction().execute(async (trx) => {
    await deleteUser(trx, id);
    await logChange(trx, ctx, {
      E_ID: user.E_ID,
      Action: SysLogActions.userDelete,
      Target: user.MobilePhone,
      Summary: { UserID: id, UserName: user.UserName, ICCID: user.ICCID, OS_ID: user.OS_ID },
    });
  });
  ctx.events.endSessions(user, 'deleted');
  ctx.events.notify('usersChanged', { E_ID: user.E_ID, UserIDs: [id] });
}
