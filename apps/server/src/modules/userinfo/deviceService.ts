import { MessageKeys, SysLogActions, type DeviceRow, type DeviceSave } from '@intercom/contract';
import type { Updateable } from 'kysely';
import type { DeviceTable } from '../../db/schema.js';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import { iccidsTaken, updateUser } from './userRepository.js';
import { departmentFor } from './userRules.js';
import { assertUserType } from '../gisType/index.js';
import { deleteDevice, findDevice, insertDevice, updateDevice } from './deviceRepository.js';

/** A positive id as a form or JSON body carries it, or null (validation will speak about it). */
function rawId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : null;
}

/**
 * `POST /api/Device/Save`, before validation: another enterprise's `E_ID` or device (`D_ID`) is
 * 4004 whatever else the form holds, exactly as an id that does not exist (issue 16).
 */
export async function assertDeviceSaveScope(ctx: ServiceContext, rawBody: unknown): Promise<void> {
  if (typeof rawBody !== 'object' || rawBody === null) return;
  const { E_ID, D_ID } = rawBody as Record<string, unknown>;
  const enterprise = rawId(E_ID);
  if (enterprise !== null && !inScope(ctx.scope, enterprise)) throw AppError.notFound();
  const device = rawId(D_ID);
  if (device !== null && !(await findDevice(ctx.db, ctx.scope, device))) throw AppError.notFound();
}

/**
 * `POST /api/Device/Save`: creates (D_ID 0) or edits an inventory record. A new ICCID must be
 * unused (4009 user.iccid_exists); on a mapped record the user's ICCID follows.
 */
export async function saveDevice(ctx: ServiceContext, input: DeviceSave): Promise<DeviceRow> {
  const id = input.D_ID === 0 ? await createDevice(ctx, input) : await editDevice(ctx, input);
  const saved = await findDevice(ctx.db, ctx.scope, id);
  if (!saved) throw AppError.notFound();
  return saved;
}

async function createDevice(ctx: ServiceContext, input: DeviceSave): Promise<number> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const iccid = input.ICCID as string;
  const OSID = await departmentFor(ctx, E_ID, input.OSID ?? 0, 'OSID');
  const UType = input.UType ?? 0;
  await assertUserType(ctx.db, E_ID, UType, 'UType');
  if ((await iccidsTaken(ctx.db, [iccid])).size > 0) throw AppError.conflict(MessageKeys.iccidExists);
  const row = {
    E_ID,
    DeviceCode: input.DeviceCode ?? '',
    ICCID: iccid,
    NickName: input.NickName ?? '',
    Priority: input.Priority ?? 0,
    OSID,
    UType,
    Remark: input.Remark ?? '',
    UserID: null,
    CreatedAt: ctx.clock.now(),
  };
  return withUniqueConflict(MessageKeys.iccidExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await insertDevice(trx, row);
      await logChange(trx, ctx, {
        E_ID,
        Action: SysLogActions.deviceCreate,
        Target: iccid,
        Summary: { D_ID: id, ...row },
      });
      return id;
    }),
  );
}

async function editDevice(ctx: ServiceContext, input: DeviceSave): Promise<number> {
  const before = await findDevice(ctx.db, ctx.scope, input.D_ID);
  if (!before) throw AppError.notFound();
  if (input.E_ID !== undefined && input.E_ID !== before.E_ID) throw AppError.field('E_ID', MessageKeys.invalid);
  const values: Updateable<DeviceTable> = {
    DeviceCode: input.DeviceCode,
    ICCID: input.ICCID,
    NickName: input.NickName,
    Priority: input.Priority,
    UType: input.UType,
    Remark: input.Remark,
  };
  if (input.OSID !== undefined) values.OSID = await departmentFor(ctx, before.E_ID, input.OSID, 'OSID');
  if (input.UType !== undefined && input.UType !== before.UType)
    await assertUserType(ctx.db, before.E_ID, input.UType, 'UType');
  const newIccid = input.ICCID !== undefined && input.ICCID !== before.ICCID ? input.ICCID : undefined;
  if (newIccid && (await iccidsTaken(ctx.db, [newIccid])).size > 0) throw AppError.conflict(MessageKeys.iccidExists);
  const changes = changesOf(before, values as Partial<DeviceRow>);
  const set = Object.fromEntries(Object.entries(values).filter(([field]) => field in changes));
  await withUniqueConflict(MessageKeys.iccidExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateDevice(trx, before.D_ID, set);
      if (newIccid && before.UserID !== null) await updateUser(trx, before.UserID, { ICCID: newIccid });
      await logChange(trx, ctx, {
        E_ID: before.E_ID,
        Action: SysLogActions.deviceUpdate,
        Target: before.ICCID,
        Summary: changes,
      });
    }),
  );
  return before.D_ID;
}

/** `DELETE /api/Device/Delete/{id}`: removes the record; a mapped user loses its ICCID. */
export async function removeDevice(ctx: ServiceContext, id: number): Promise<void> {
  const device = await findDevice(ctx.db, ctx.scope, id);
  if (!device) throw AppError.notFound();
  await ctx.db.transaction().execute(async (trx) => {
    if (device.UserID !== null) await updateUser(trx, device.UserID, { ICCID: null });
    await deleteDevice(trx, id);
    await logChange(trx, ctx, {
      E_ID: device.E_ID,
      Action: SysLogActions.deviceDelete,
      Target: device.ICCID,
      Summary: { D_ID: id, UserID: device.UserID, MobilePhone: device.MobilePhone },
    });
  });
}
