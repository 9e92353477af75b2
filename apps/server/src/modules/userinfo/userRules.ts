import { MessageKeys } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/uniqueViolation.js';
import { AppError } from '../../http/AppError.js';
import type { ServiceContext } from '../../core/serviceContext.js';
import { findOrgan } from '../organ/index.js';
import { assertIccidFree } from './simBinding.js';
import { namesTaken, phonesTaken } from './userRepository.js';

/**
 * The department of a user: 0 is none (null); otherwise a department of the scope (else 4004)
 * in the user's own enterprise (else 4000 user.department_enterprise on `field`).
 */
export async function departmentFor(ctx: ServiceContext, enterpriseId: number, organId: number, field = 'OS_ID') {
  if (organId === 0) return null;
  const organ = await findOrgan(ctx.db, ctx.scope, organId);
  if (!organ) throw AppError.notFound();
  if (organ.E_ID !== enterpriseId) throw AppError.field(field, MessageKeys.departmentEnterprise);
  return organId;
}

export interface UserIdentity {
  UserID: number;
  E_ID: number;
  MobilePhone: string;
  UserName: string;
  ICCID: string | null;
}

/** Which uniqueness rule a user breaks (phone, then name, then ICCID), or null. */
export async function conflictOf(db: Kysely<DB>, user: UserIdentity): Promise<string | null> {
  if ((await phonesTaken(db, [user.MobilePhone], user.UserID)).size > 0) return MessageKeys.phoneExists;
  if ((await namesTaken(db, user.E_ID, [user.UserName], user.UserID)).size > 0) return MessageKeys.nameExists;
  if (user.ICCID) {
    try {
      await assertIccidFree(db, user.ICCID, user);
    } catch (error) {
      if (error instanceof AppError) return error.message;
      throw error;
    }
  }
  return null;
}

/**
 * Runs a write; a unique violation (two requests passed the checks at once) becomes the 4009 of
 * the rule it broke instead of a 500.
 */
export async function withUserConflicts<T>(db: Kysely<DB>, users: UserIdentity[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    for (const user of users) {
      const key = await conflictOf(db, user);
      if (key) throw AppError.conflict(key);
    }
    throw AppError.conflict(MessageKeys.nameExists);
  }
}
