import { randomBytes } from 'node:crypto';
import { SYS_CONFIG_DEFAULTS } from '@intercom/contract';
import type { Kysely } from 'kysely';
import { hashPassword } from './passwords.js';
import type { DB } from '../db/schema.js';

export const DEMO_CODE = 'DEMO';
export const DEMO_ADMIN = 'admin';

export interface FirstRunResult {
  created: boolean;
  /** The generated password, present only when it was generated now (printed once). */
  generatedPassword?: string;
}

function generatePassword(): string {
  // 16 characters with every class, so it passes the change-password rule too.
  const base = randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
  return `${base}A7!`;
}

/**
 * Creates enterprise DEMO with account admin on an empty database. The password is
 * ADMIN_PASSWORD, else generated: there is no default password.
 */
export async function seedFirstRun(
  db: Kysely<DB>,
  adminPassword: string | undefined,
  passwordLogN: number,
  now = Date.now(),
): Promise<FirstRunResult> {
  const existing = await db.selectFrom('enterprise').select('E_ID').limit(1).executeTakeFirst();
  if (existing) return { created: false };
  const password = adminPassword ?? generatePassword();
  const hash = await hashPassword(password, passwordLogN);
  await db.transaction().execute(async (trx) => {
    const enterprise = await trx
      .insertInto('enterprise')
      .values({
        E_Code: DEMO_CODE,
        E_Name: 'Demo Enterprise',
        P_ID: null,
        A_ID: null,
        Quota: 1000,
        ExpireAt: null,
        Disabled: 0,
        CreatedAt: now,
      })
      .returning('E_ID')
      .executeTakeFirstOrThrow();
    const account = await trx
      .insertInto('account')
      .values({
        E_ID: enterprise.E_ID,
        LoginName: DEMO_ADMIN,
        Name: 'Administrator',
        Mail: '',
        PasswordHash: hash,
        Role: 'admin',
        Disabled: 0,
        FailedCount: 0,
        LockedUntil: null,
        CreatedAt: now,
      })
      .returning('A_ID')
      .executeTakeFirstOrThrow();
    await trx.updateTable('enterprise').set({ A_ID: account.A_ID }).where('E_ID', '=', enterprise.E_ID).execute();
    await trx
      .insertInto('sys_config')
      .values(Object.entries(SYS_CONFIG_DEFAULTS).map(([Code, Value]) => ({ E_ID: enterprise.E_ID, Code, Value })))
      .execute();
  });
  return adminPassword ? { created: true } : { created: true, generatedPassword: password };
}
