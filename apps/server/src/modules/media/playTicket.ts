import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LoginKey } from '../../auth/loginCrypto.js';
import type { DB } from '../../db/schema.js';

/**
 * Play URLs for `<audio>` elements, which cannot send an Authorization header: the recording id,
 * the session that asked and an expiry, signed with a key derived from the login key (stored in
 * the database, so every instance verifies what another signed). A ticket stops working when it
 * expires or when its session ends.
 */
function keyOf(loginKey: LoginKey): Buffer {
  return createHash('sha256').update('recording-play\u0000').update(loginKey.privatePem).digest();
}

function signature(loginKey: LoginKey, payload: string): string {
  return createHmac('sha256', keyOf(loginKey)).update(payload).digest('base64url');
}

export function signTicket(loginKey: LoginKey, ticket: { R_ID: number; S_ID: number; exp: number }): string {
  const payload = `${ticket.R_ID}.${ticket.S_ID}.${ticket.exp}`;
  return `${payload}.${signature(loginKey, payload)}`;
}

export function verifyTicket(
  loginKey: LoginKey,
  text: string,
  now = Date.now(),
): { R_ID: number; S_ID: number } | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(text);
  if (!match) return undefined;
  const payload = `${match[1]}.${match[2]}.${match[3]}`;
  const given = Buffer.from(match[4] as string);
  const expected = Buffer.from(signature(loginKey, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  if (Number(match[3]) < now) return undefined;
  return { R_ID: Number(match[1]), S_ID: Number(match[2]) };
}

/** The session is still open and within its idle and absolute limits. */
export async function sessionAlive(
  db: Kysely<DB>,
  sessionId: number,
  idleMs: number,
  now = Date.now(),
): Promise<boolean> {
  const row = await db
    .selectFrom('session')
    .select('S_ID')
    .where('S_ID', '=', sessionId)
    .where('EndedAt', 'is', null)
    .where('ExpiresAt', '>', now)
    .where('LastSeenAt', '>=', now - idleMs)
    .executeTakeFirst();
  return row !== undefined;
}
