import { Code, MessageKeys } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { EndReason } from '../bus/eventBus.js';
import { AppError } from '../http/AppError.js';
import { hashToken, newToken } from './tokens.js';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface ActiveSession {
  S_ID: number;
  A_ID: number;
  E_ID: number;
  /** The enterprise the console switched to (POST /api/Enterprise/SwitchWorking); null is the own one. */
  WorkingE_ID: number | null;
}

/** LastSeenAt is written at most this often, so busy sessions do not write on every request. */
const TOUCH_INTERVAL_MS = 30_000;

function issue(policy: SessionPolicy) {
  const access = newToken();
  const refresh = newToken();
  const tokens: IssuedTokens = {
    access_token: access,
    refresh_token: refresh,
    expires_in: Math.floor(policy.idleMs / 1000),
  };
  return { tokens, TokenHash: hashToken(access), RefreshHash: hashToken(refresh) };
}

/** Ends the account's other sessions as "replaced" and opens a new one (one session per account). */
export async function openSession(
  db: Kysely<DB>,
  policy: SessionPolicy,
  account: { A_ID: number; E_ID: number },
  meta: { clientId: string; ip: string },
  now: number,
): Promise<{ tokens: IssuedTokens; replaced: number[] }> {
  const { tokens, TokenHash, RefreshHash } = issue(policy);
  const replaced = await endSessions(db, account.A_ID, 'replaced', now);
  await db
    .insertInto('session')
    .values({
      E_ID: account.E_ID,
      A_ID: account.A_ID,
      TokenHash,
      RefreshHash,
      ClientId: meta.clientId,
      IP: meta.ip,
      CreatedAt: now,
      LastSeenAt: now,
      ExpiresAt: now + policy.absoluteMs,
      EndedAt: null,
      EndReason: null,
    })
    .execute();
  return { tokens, replaced };
}

/** Ends every open session of an account; returns their ids so live connections can be closed. */
export async function endSessions(db: Kysely<DB>, accountId: number, reason: EndReason, now = Date.now()) {
  const open = await db
    .selectFrom('session')
    .select('S_ID')
    .where('A_ID', '=', accountId)
    .where('EndedAt', 'is', null)
    .execute();
  if (open.length === 0) return [];
  await db
    .updateTable('session')
    .set({ EndedAt: now, EndReason: reason })
    .where('A_ID', '=', accountId)
    .where('EndedAt', 'is', null)
    .execute();
  return open.map((s) => s.S_ID);
}

export async function endSession(db: Kysely<DB>, sessionId: number, reason: EndReason, now = Date.now()) {
  await db
    .updateTable('session')
    .set({ EndedAt: now, EndReason: reason })
    .where('S_ID', '=', sessionId)
    .where('EndedAt', 'is', null)
    .execute();
}

function endedError(reason: string | null): AppError {
  if (reason === 'replaced') return new AppError(Code.SessionReplaced, MessageKeys.sessionReplaced);
  if (reason === 'expired') return new AppError(Code.TokenExpired, MessageKeys.tokenExpired);
  return new AppError(Code.SessionEnded, MessageKeys.sessionEnded);
}

/**
 * Resolves a bearer token to its live session, or throws the code a client must see:
 * 50008 unknown, 50014 expired, 50012 replaced, 1001 ended.
 */
export async function resolveSession(
  db: Kysely<DB>,
  policy: SessionPolicy,
  token: string | undefined,
  now: number,
): Promise<ActiveSession> {
  if (!token) throw new AppError(Code.TokenMissing, MessageKeys.tokenMissing);
  const row = await db
    .selectFrom('session')
    .select(['S_ID', 'A_ID', 'E_ID', 'WorkingE_ID', 'LastSeenAt', 'ExpiresAt', 'EndedAt', 'EndReason'])
    .where('TokenHash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw new AppError(Code.TokenMissing, MessageKeys.tokenMissing);
  if (row.EndedAt !== null) throw endedError(row.EndReason);
  if (now > row.ExpiresAt || now - row.LastSeenAt > policy.idleMs) {
    await endSession(db, row.S_ID, 'expired', now);
    throw new AppError(Code.TokenExpired, MessageKeys.tokenExpired);
  }
  if (now - row.LastSeenAt > TOUCH_INTERVAL_MS) {
    await db.updateTable('session').set({ LastSeenAt: now }).where('S_ID', '=', row.S_ID).execute();
  }
  return { S_ID: row.S_ID, A_ID: row.A_ID, E_ID: row.E_ID, WorkingE_ID: row.WorkingE_ID };
}

/** Trades a refresh token for new tokens on the same session (both rotate). */
export async function refreshSession(
  db: Kysely<DB>,
  policy: SessionPolicy,
  refreshToken: string,
  now: number,
): Promise<IssuedTokens> {
  const row = await db
    .selectFrom('session')
    .innerJoin('account', 'account.A_ID', 'session.A_ID')
    .select([
      'session.S_ID',
      'session.LastSeenAt',
      'session.ExpiresAt',
      'session.EndedAt',
      'session.EndReason',
      'account.Disabled',
    ])
    .where('session.RefreshHash', '=', hashToken(refreshToken))
    .executeTakeFirst();
  if (!row) throw new AppError(Code.TokenMissing, MessageKeys.loginRefreshInvalid);
  if (row.EndedAt !== null) throw endedError(row.EndReason);
  // A frozen account gets no new tokens: its session ends here, as the auth hook would end it.
  if (row.Disabled) {
    await endSession(db, row.S_ID, 'frozen', now);
    throw new AppError(Code.SessionEnded, MessageKeys.sessionEnded);
  }
  if (now > row.ExpiresAt || now - row.LastSeenAt > policy.idleMs) {
    await endSession(db, row.S_ID, 'expired', now);
    throw new AppError(Code.TokenExpired, MessageKeys.tokenExpired);
  }
  const { tokens, TokenHash, RefreshHash } = issue(policy);
  await db
    .updateTable('session')
    .set({ TokenHash, RefreshHash, LastSeenAt: now })
    .where('S_ID', '=', row.S_ID)
    .execute();
  return tokens;
}
