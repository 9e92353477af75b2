import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { inScope, type Scope } from '../../tenancy/scope.js';
import { enterpriseIdByCode } from '../enterprise/index.js';

/**
 * The enterprise of `GET /api/UserInfo/Users` (the spec's getUserList(E_ID, E_Code)): `eID` or `E_ID`
 * by id, `E_Code` by company code, the working enterprise when none is given. Every one given must
 * name the same enterprise of the caller's scope; otherwise 4004, as for any enterprise outside it.
 */
export async function enterpriseOfUserList(
  db: Kysely<DB>,
  scope: Scope,
  given: { eID?: number | undefined; E_ID?: number | undefined; E_Code?: string | undefined },
): Promise<number> {
  const ids = [given.eID, given.E_ID].filter((id): id is number => id !== undefined);
  if (given.E_Code !== undefined && given.E_Code !== '') {
    const byCode = await enterpriseIdByCode(db, given.E_Code);
    if (byCode === undefined) throw AppError.notFound();
    ids.push(byCode);
  }
  const id = ids[0] ?? scope.rootId;
  if (ids.some((other) => other !== id) || !inScope(scope, id)) throw AppError.notFound();
  return id;
}
