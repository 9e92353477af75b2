import { SYS_CONFIG_DEFAULTS, type SysConfigCode } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { AppError } from '../http/AppError.js';
import { inScope, type Scope } from '../tenancy/scope.js';
import { getSysConfigValue } from './sysConfigRepository.js';

/**
 * A config entry of one enterprise of the scope (not necessarily the caller's working one),
 * default filled in; an enterprise outside the scope is 4004.
 */
export async function enterpriseConfig(
  ctx: { db: Kysely<DB>; scope: Scope },
  enterpriseId: number,
  code: SysConfigCode,
): Promise<string> {
  const value = await getSysConfigValue(ctx.db, ctx.scope, code, enterpriseOf(ctx.scope, enterpriseId));
  return value ?? SYS_CONFIG_DEFAULTS[code];
}

/** The enterprise a call works on: `eid` when given (it must be in the scope), else the working one. */
export function enterpriseOf(scope: Scope, eid: number | undefined): number {
  const enterpriseId = eid ?? scope.rootId;
  if (!inScope(scope, enterpriseId)) throw AppError.notFound();
  return enterpriseId;
}
