import type { Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.js';

/** Inserts an enabled, unlocked admin account of enterprise `E_ID` (a bench's own console login). */
export async function insertAdminAccount(
  db: Kysely<DB>,
  account: { E_ID: number; LoginName: string; Name: string; PasswordHash: string; CreatedAt: number },
): Promise<void> {
  await db
    .insertInto('account')
    .values({ ...account, Mail: '', Role: 'admin', Disabled: 0, FailedCount: 0, LockedUntil: null })
    .execute();
}
