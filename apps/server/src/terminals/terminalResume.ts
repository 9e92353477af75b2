import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TerminalLimits } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** What a stored token is checked against: the user's id and password hash now. */
export interface ResumeHolder {
  U_ID: number;
  PasswordHash: string;
}

/** The token's digest, bound to the password hash: a new password makes every older token wrong. */
function digest(token: string, passwordHash: string): Buffer {
  return createHash('sha256').update(token).update('\n').update(passwordHash).digest();
}

/**
 * A new `resume` token for the user, replacing the one before (one per user: the newest password
 * login's). Only its digest is stored.
 */
export async function issueResume(db: Kysely<DB>, user: ResumeHolder, now: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const row = {
    UserID: user.U_ID,
    TokenHash: digest(token, user.PasswordHash).toString('hex'),
    ExpiresAt: now + TerminalLimits.resumeTtlMs,
  };
  await db
    .insertInto('terminal_resume')
    .values(row)
    .onConflict((oc) => oc.column('UserID').doUpdateSet({ TokenHash: row.TokenHash, ExpiresAt: row.ExpiresAt }))
    .execute();
  return token;
}

/** Whether `token` is the user's current token, unexpired and issued under the password hash it has now. */
export async function resumeHolds(db: Kysely<DB>, user: ResumeHolder, token: string, now: number) {
  const row = await db
    .selectFrom('terminal_resume')
    .select(['TokenHash', 'ExpiresAt'])
    .where('UserID', '=', user.U_ID)
    .executeTakeFirst();
  if (!row || row.ExpiresAt <= now) return false;
  const stored = Buffer.from(row.TokenHash, 'hex');
  const given = digest(token, user.PasswordHash);
  return stored.length === given.length && timingSafeEqual(stored, given);
}
