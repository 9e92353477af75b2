import type { TerminalCloseReason } from '@intercom/contract';
import type { Kysely } from 'kysely';
import { endSession, type SessionPolicy } from '../auth/sessions.js';
import type { DB } from '../db/schema.js';
import { loadWorkingScope, type Scope } from '../tenancy/scope.js';

/** A console session that may carry a dispatcher seat now, with the scope it has now. */
export interface LiveSeatSession {
  live: true;
  A_ID: number;
  E_ID: number;
  name: string;
  scope: Scope;
}

/** A session whose seat must close, and the reason the seat is told. */
export interface EndedSeatSession {
  live: false;
  reason: TerminalCloseReason;
}

export type SeatSessionState = LiveSeatSession | EndedSeatSession;

const BATCH = 500;

/**
 * What a seat is told when its session ended for `reason` (a session replaced by a new login included).
 * `reason` is an `EndReason` from the event bus, or the session row's EndReason column as read (any
 * text, or null), so a plain string: only 'logout', 'password', 'frozen' and 'deleted' are passed on.
 */
export function seatCloseReason(reason: string | null): TerminalCloseReason {
  if (reason === 'logout' || reason === 'password' || reason === 'frozen' || reason === 'deleted') return reason;
  return 'session_end';
}

/**
 * Reads the console sessions behind dispatcher seats (DESIGN.md 11): a seat lives only while its
 * session is open and within its idle and absolute limits, its account exists and is enabled, and its
 * enterprise exists and is not frozen. The scope of a live one is read from the session's working
 * enterprise and the enterprise tree as they are now. A session found expired is ended, as the REST
 * auth hook and the hub would end it. `now` is AppDeps.clock's time, as those limits are judged by.
 */
export async function readSeatSessions(
  db: Kysely<DB>,
  policy: SessionPolicy,
  sessionIds: readonly number[],
  now: number,
): Promise<Map<number, SeatSessionState>> {
  const states = new Map<number, SeatSessionState>();
  const ids = [...new Set(sessionIds)];
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const rows = await db
      .selectFrom('session')
      .leftJoin('account', 'account.A_ID', 'session.A_ID')
      .leftJoin('enterprise', 'enterprise.E_ID', 'account.E_ID')
      .select([
        'session.S_ID',
        'session.WorkingE_ID',
        'session.EndedAt',
        'session.EndReason',
        'session.ExpiresAt',
        'session.LastSeenAt',
        'account.A_ID',
        'account.E_ID',
        'account.Name',
        'account.LoginName',
        'account.Disabled',
        'enterprise.Disabled as EnterpriseDisabled',
      ])
      .where('session.S_ID', 'in', batch)
      .execute();
    const byId = new Map(rows.map((row) => [row.S_ID, row]));
    for (const id of batch) {
      const row = byId.get(id);
      if (!row || row.A_ID === null || row.E_ID === null) {
        states.set(id, { live: false, reason: 'deleted' });
      } else if (row.EndedAt !== null) {
        states.set(id, { live: false, reason: seatCloseReason(row.EndReason) });
      } else if (row.Disabled || row.EnterpriseDisabled === null || row.EnterpriseDisabled) {
        await endSession(db, id, 'frozen', now);
        states.set(id, { live: false, reason: 'frozen' });
      } else if (now > row.ExpiresAt || now - row.LastSeenAt > policy.idleMs) {
        await endSession(db, id, 'expired', now);
        states.set(id, { live: false, reason: 'session_end' });
      } else {
        const scope = await loadWorkingScope(db, row.E_ID, row.WorkingE_ID);
        states.set(id, { live: true, A_ID: row.A_ID, E_ID: row.E_ID, name: row.Name || row.LoginName || '', scope });
      }
    }
  }
  return states;
}
