import {
  Code,
  SysLogActions,
  USER_CAPS_DEFAULT,
  batchNumbers,
  MessageKeys,
  type CreatedUsers,
  type FieldError,
  type UserBatch,
  type UserList,
} from '@intercom/contract';
import { hashPassword } from '../../auth/passwords.js';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { bindIccid } from './simBinding.js';
import { assertLicences, reserveLicences } from '../enterprise/index.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { iccidsTaken, insertUsers, namesTaken, phonesTaken } from './userRepository.js';
import { departmentFor, withUserConflicts } from './userRules.js';
import { assertUserType } from '../gisType/index.js';

type Shared = Pick<UserBatch, 'E_ID' | 'OS_ID' | 'UType' | 'PriorityLevel' | 'ExpireAt'>;

interface NewUser {
  UserName: string;
  MobilePhone: string;
  ICCID: string | null;
  password: string;
}

/**
 * `POST /api/UserInfo/BatchAdd`: users prefix+number with MobilePhone = number, from `start`.
 * All or nothing; quota first (4009 user.account_shortage), then every row (4009 with
 * `rows.<i>.<field>` errors).
 */
export async function batchAdd(ctx: ServiceContext, input: UserBatch): Promise<CreatedUsers> {
  const users = batchNumbers(input.start, input.count).map((number) => ({
    UserName: `${input.prefix}${number}`,
    MobilePhone: number,
    ICCID: null,
    password: input.Password,
  }));
  return createUsers(ctx, input, users, SysLogActions.userBatchCreate);
}

/** `POST /api/UserInfo/ListAdd`: up to 20 typed rows, same rules as BatchAdd. */
export async function listAdd(ctx: ServiceContext, input: UserList): Promise<CreatedUsers> {
  const users = input.rows.map((row) => ({
    UserName: row.UserName,
    MobilePhone: row.MobilePhone,
    ICCID: row.ICCID || null,
    password: (row.Password ?? input.Password) as string,
  }));
  return createUsers(ctx, input, users, SysLogActions.userListCreate);
}

/** Duplicates inside the request and against the database, as per-row field errors. */
async function rowErrors(ctx: ServiceContext, enterpriseId: number, users: NewUser[]): Promise<FieldError[]> {
  const [phones, names, iccids] = await Promise.all([
    phonesTaken(
      ctx.db,
      users.map((u) => u.MobilePhone),
    ),
    namesTaken(
      ctx.db,
      enterpriseId,
      users.map((u) => u.UserName),
    ),
    iccidsTaken(
      ctx.db,
      users.flatMap((u) => (u.ICCID ? [u.ICCID] : [])),
    ),
  ]);
  const seen = { phone: new Set<string>(), name: new Set<string>(), iccid: new Set<string>() };
  const errors: FieldError[] = [];
  users.forEach((user, i) => {
    if (phones.has(user.MobilePhone) || seen.phone.has(user.MobilePhone)) {
      errors.push({ field: `rows.${i}.MobilePhone`, key: MessageKeys.phoneExists });
    }
    if (names.has(user.UserName) || seen.name.has(user.UserName)) {
      errors.push({ field: `rows.${i}.UserName`, key: MessageKeys.nameExists });
    }
    if (user.ICCID && (iccids.has(user.ICCID) || seen.iccid.has(user.ICCID))) {
      errors.push({ field: `rows.${i}.ICCID`, key: MessageKeys.iccidExists });
    }
    seen.phone.add(user.MobilePhone);
    seen.name.add(user.UserName);
    if (user.ICCID) seen.iccid.add(user.ICCID);
  });
  return errors;
}

async function createUsers(
  ctx: ServiceContext,
  shared: Shared,
  users: NewUser[],
  action: string,
): Promise<CreatedUsers> {
  const E_ID = shared.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  await assertLicences(ctx.db, E_ID, users.length);
  const OS_ID = await departmentFor(ctx, E_ID, shared.OS_ID ?? 0);
  const UType = shared.UType ?? 0;
  await assertUserType(ctx.db, E_ID, UType, 'UType');
  const errors = await rowErrors(ctx, E_ID, users);
  if (errors.length > 0) throw new AppError(Code.Conflict, errors[0]?.key ?? MessageKeys.nameExists, undefined, errors);

  // One hash per distinct password: a batch shares one, so 99 users cost one scrypt run.
  const hashes = new Map<string, string>();
  for (const password of new Set(users.map((u) => u.password))) {
    hashes.set(password, await hashPassword(password, ctx.passwordLogN));
  }
  const now = ctx.clock.now();
  const rows = users.map((u) => ({
    E_ID,
    OS_ID,
    UserName: u.UserName,
    MobilePhone: u.MobilePhone,
    ICCID: null,
    UType,
    PriorityLevel: shared.PriorityLevel ?? 0,
    ExpireAt: shared.ExpireAt ?? null,
    IsLock: 0,
    Caps: USER_CAPS_DEFAULT,
    PasswordHash: hashes.get(u.password) as string,
    GPSConfig: '',
    Remark: '',
    CreatedAt: now,
  }));
  const identities = users.map((u) => ({
    UserID: 0,
    E_ID,
    MobilePhone: u.MobilePhone,
    UserName: u.UserName,
    ICCID: u.ICCID,
  }));
  const created = await withUserConflicts(ctx.db, identities, () =>
    ctx.db.transaction().execute(async (trx) => {
      await reserveLicences(trx, E_ID, users.length);
      await insertUsers(trx, rows);
      const ids = await trx
        .selectFrom('terminal_user')
        .select(['UserID', 'MobilePhone'])
        .where(
          'MobilePhone',
          'in',
          users.map((u) => u.MobilePhone),
        )
        .execute();
      const idOf = new Map(ids.map((r) => [r.MobilePhone, r.UserID]));
      const made = users.map((u) => ({
        UserID: idOf.get(u.MobilePhone) as number,
        UserName: u.UserName,
        MobilePhone: u.MobilePhone,
      }));
      for (const [i, u] of users.entries()) {
        if (u.ICCID) await bindIccid(trx, { UserID: made[i]?.UserID as number, E_ID }, u.ICCID, now);
      }
      await logChange(trx, ctx, {
        E_ID,
        Action: action,
        Target: `${users[0]?.MobilePhone ?? ''}..${users.at(-1)?.MobilePhone ?? ''}`,
        Summary: { count: users.length, OS_ID, UType, phones: users.map((u) => u.MobilePhone) },
      });
      return made;
    }),
  );
  ctx.events.notify('usersChanged', { E_ID, UserIDs: created.map((u) => u.UserID) });
  return { created: created.length, users: created };
}
