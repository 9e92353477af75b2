import { MessageKeys } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import type { ServiceContext } from '../../core/serviceContext.js';
import { findOrgan, organsOf } from '../organ/index.js';
import { findUsers } from './userRepository.js';

/** Who a geofence or a safety setting is for: these users and departments, or (neither) the whole enterprise. */
export interface Targets {
  UserIds: number[];
  DepartmentIds: number[];
}

/**
 * The targets of a fence or a safety setting of enterprise `E_ID`, checked: users and departments
 * must be of that enterprise. One outside the caller's scope is 4004, as if it did not exist; one of
 * another enterprise in the scope (a sub-enterprise) is a 4000.
 */
export async function checkTargets(ctx: ServiceContext, E_ID: number, targets: Targets): Promise<void> {
  const users = await findUsers(ctx.db, ctx.scope, targets.UserIds);
  if (users.length < targets.UserIds.length) throw AppError.notFound();
  if (users.some((u) => u.E_ID !== E_ID)) throw AppError.field('UserIds', MessageKeys.channelMemberEnterprise);
  if (targets.DepartmentIds.length === 0) return;
  const own = new Set((await organsOf(ctx.db, E_ID)).map((o) => o.OSID));
  for (const id of targets.DepartmentIds) {
    if (own.has(id)) continue;
    if (await findOrgan(ctx.db, ctx.scope, id)) throw AppError.field('DepartmentIds', MessageKeys.departmentEnterprise);
    throw AppError.notFound();
  }
}
