import type { Kysely } from 'kysely';
import { endSession, type SessionPolicy } from '../auth/sessions.js';
import type { DB } from '../db/schema.js';
import type { HubConnection } from './hubConnection.js';

/** LastSeenAt of a session behind a live hub connection is written at most this often. */
const TOUCH_INTERVAL_MS = 30_000;
const BATCH = 500;

/**
 * Checks the sessions behind hub connections, a batch of sessions per query: those that ended,
 * expired or whose account was frozen (by any path, announced or not) get their connections closed
 * with the reason; active ones get LastSeenAt refreshed, because hub traffic counts as activity.
 */
export async function checkHubSessions(
  db: Kysely<DB>,
  policy: SessionPolicy,
  connections: readonly HubConnection[],
  close: (sessionId: number, reason: string | null) => void,
  now: number,
): Promise<void> {
  const bySession = new Map<number, HubConnection[]>();
  for (const connection of connections) {
    const id = connection.principal.session.S_ID;
    bySession.set(id, [...(bySession.get(id) ?? []), connection]);
  }
  const ids = [...bySession.keys()];
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const rows = await db
      .selectFrom('session')
      .innerJoin('account', 'account.A_ID', 'session.A_ID')
      .select([
        'session.S_ID',
        'session.EndedAt',
        'session.EndReason',
        'session.ExpiresAt',
        'session.LastSeenAt',
        'account.Disabled',
      ])
      .where('session.S_ID', 'in', batch)
      .execute();
    const byId = new Map(rows.map((row) => [row.S_ID, row]));
    const touch: number[] = [];
    for (const id of batch) {
      const held = bySession.get(id) ?? [];
      const active = held.some((connection) => connection.active);
      for (const connection of held) connection.active = false;
      const row = byId.get(id);
      if (!row) {
        close(id, 'logout');
      } else if (row.EndedAt !== null) {
        close(id, row.EndReason);
      } else if (row.Disabled) {
        await endSession(db, id, 'frozen', now);
        close(id, 'frozen');
      } else if (now > row.ExpiresAt || (!active && now - row.LastSeenAt > policy.idleMs)) {
        await endSession(db, id, 'expired', now);
        close(id, 'expired');
      } else if (active && now - row.LastSeenAt > TOUCH_INTERVAL_MS) {
        touch.push(id);
      }
    }
    if (touch.length > 0) {
      await db
        .updateTable('session')
        .set({ LastSeenAt: now })
        .where('S_ID', 'in', touch)
        .where('EndedAt', 'is', null)
        .execute();
    }
  }
}
