import { MessageKeys, SysLogActions, type OrganDetail, type OrganRow, type OrganSave } from '@intercom/contract';
import { withUniqueConflict } from '../../db/withUniqueConflict.js';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { changesOf, logChange, type ServiceContext } from '../../core/serviceContext.js';
import { assertUserType } from '../gisType/index.js';
import {
  countChildren,
  countDirectUsers,
  deleteOrgan,
  findOrgan,
  insertOrgan,
  organsOf,
  siblingNameTaken,
  subtreeIds,
  updateOrgan,
} from './organRepository.js';

export async function organDetail(ctx: ServiceContext, id: number): Promise<OrganDetail> {
  const organ = await findOrgan(ctx.db, ctx.scope, id);
  if (!organ) throw AppError.notFound();
  const [ChildCount, UserCount] = await Promise.all([
    countChildren(ctx.db, id),
    countDirectUsers(ctx.db, organ.E_ID, id),
  ]);
  return { ...organ, ChildCount, UserCount };
}

/** The parent must be 0 (the enterprise) or a department of the same enterprise. */
async function checkParent(ctx: ServiceContext, enterpriseId: number, parentId: number): Promise<void> {
  if (parentId === 0) return;
  const parent = await findOrgan(ctx.db, ctx.scope, parentId);
  if (!parent) throw AppError.notFound();
  if (parent.E_ID !== enterpriseId) throw AppError.field('OSParentID', MessageKeys.organParentEnterprise);
}

/**
 * `POST /api/Organ/Save`: creates (OSID 0) or edits a department. Names are unique among
 * siblings (4009 common.name_exists); a department never moves below itself (4000 organ.cycle).
 */
export async function saveOrgan(ctx: ServiceContext, input: OrganSave): Promise<OrganRow> {
  return input.OSID === 0 ? createOrgan(ctx, input) : editOrgan(ctx, input);
}

async function createOrgan(ctx: ServiceContext, input: OrganSave): Promise<OrganRow> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const row: Omit<OrganRow, 'OSID'> = {
    E_ID,
    OSParentID: input.OSParentID ?? 0,
    OSName: input.OSName,
    U_TypeID: input.U_TypeID ?? 0,
    PriorityLevel: input.PriorityLevel ?? 0,
  };
  await checkParent(ctx, E_ID, row.OSParentID);
  await assertUserType(ctx.db, E_ID, row.U_TypeID, 'U_TypeID');
  if (await siblingNameTaken(ctx.db, row, 0)) throw AppError.conflict(MessageKeys.nameExists);
  const OSID = await withUniqueConflict(MessageKeys.nameExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await insertOrgan(trx, row);
      await logChange(trx, ctx, {
        E_ID,
        Action: SysLogActions.organCreate,
        Target: row.OSName,
        Summary: { OSID: id, ...row },
      });
      return id;
    }),
  );
  return { OSID, ...row };
}

async function editOrgan(ctx: ServiceContext, input: OrganSave): Promise<OrganRow> {
  const before = await findOrgan(ctx.db, ctx.scope, input.OSID);
  if (!before) throw AppError.notFound();
  if (input.E_ID !== undefined && input.E_ID !== before.E_ID) throw AppError.field('E_ID', MessageKeys.invalid);
  const after: OrganRow = {
    ...before,
    OSName: input.OSName,
    OSParentID: input.OSParentID ?? before.OSParentID,
    U_TypeID: input.U_TypeID ?? before.U_TypeID,
    PriorityLevel: input.PriorityLevel ?? before.PriorityLevel,
  };
  if (after.OSParentID !== before.OSParentID) {
    await checkParent(ctx, before.E_ID, after.OSParentID);
    const below = subtreeIds(await organsOf(ctx.db, before.E_ID), before.OSID);
    if (below.includes(after.OSParentID)) throw AppError.field('OSParentID', MessageKeys.organCycle);
  }
  if (after.U_TypeID !== before.U_TypeID) await assertUserType(ctx.db, before.E_ID, after.U_TypeID, 'U_TypeID');
  if (await siblingNameTaken(ctx.db, after, before.OSID)) throw AppError.conflict(MessageKeys.nameExists);
  const changes = changesOf(before, after);
  await withUniqueConflict(MessageKeys.nameExists, () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateOrgan(trx, before.OSID, {
        OSName: after.OSName,
        OSParentID: after.OSParentID,
        U_TypeID: after.U_TypeID,
        PriorityLevel: after.PriorityLevel,
      });
      await logChange(trx, ctx, {
        E_ID: before.E_ID,
        Action: SysLogActions.organUpdate,
        Target: before.OSName,
        Summary: changes,
      });
    }),
  );
  return after;
}

/**
 * `DELETE /api/Organ/Delete/{id}`: only an empty department goes. 4009 organ.has_children,
 * organ.has_users or organ.has_children_and_users, with the counts in Params.
 */
export async function removeOrgan(ctx: ServiceContext, id: number): Promise<void> {
  const organ = await findOrgan(ctx.db, ctx.scope, id);
  if (!organ) throw AppError.notFound();
  await ctx.db.transaction().execute(async (trx) => {
    const children = await countChildren(trx, id);
    const users = await countDirectUsers(trx, organ.E_ID, id);
    if (children > 0 && users > 0) {
      throw AppError.conflict(MessageKeys.organHasChildrenAndUsers, { children, users });
    }
    if (children > 0) throw AppError.conflict(MessageKeys.organHasChildren, { children });
    if (users > 0) throw AppError.conflict(MessageKeys.organHasUsers, { users });
    await deleteOrgan(trx, id);
    await logChange(trx, ctx, {
      E_ID: organ.E_ID,
      Action: SysLogActions.organDelete,
      Target: organ.OSName,
      Summary: organ,
    });
  });
}
