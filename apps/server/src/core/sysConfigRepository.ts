import { SYS_CONFIG_CODES, SYS_CONFIG_DEFAULTS, type SysConfigEntry } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { inScope, type Scope } from '../tenancy/scope.js';

/** The enterprise's config entries, defaults filled in for codes never set. */
export async function listSysConfig(db: Kysely<DB>, scope: Scope): Promise<SysConfigEntry[]> {
  const rows = await db.selectFrom('sys_config').select(['Code', 'Value']).where('E_ID', '=', scope.rootId).execute();
  const stored = new Map(rows.map((r) => [r.Code, r.Value]));
  const known = SYS_CONFIG_CODES.map((Code) => ({ Code, Value: stored.get(Code) ?? SYS_CONFIG_DEFAULTS[Code] }));
  const extra = rows.filter((r) => !(SYS_CONFIG_CODES as string[]).includes(r.Code));
  return [...known, ...extra];
}

/** A stored value of the working enterprise, or of `enterpriseId` when given (nothing outside the scope). */
export async function getSysConfigValue(
  db: Kysely<DB>,
  scope: Scope,
  code: string,
  enterpriseId = scope.rootId,
): Promise<string | undefined> {
  if (!inScope(scope, enterpriseId)) return undefined;
  const row = await db
    .selectFrom('sys_config')
    .select('Value')
    .where('E_ID', '=', enterpriseId)
    .where('Code', '=', code)
    .executeTakeFirst();
  return row?.Value;
}

export async function setSysConfigValue(db: Kysely<DB>, scope: Scope, code: string, value: string): Promise<void> {
  await db
    .insertInto('sys_config')
    .values({ E_ID: scope.rootId, Code: code, Value: value })
    .onConflict((oc) => oc.columns(['E_ID', 'Code']).doUpdateSet({ Value: value }))
    .execute();
}
