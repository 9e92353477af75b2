import type { EndReason, EventBus } from './eventBus.js';

/**
 * Tells every server instance that sessions ended (logout, replaced by a new login, password change,
 * frozen account): their hub connections close with the reason's error and do not reconnect.
 */
export function announceSessionsEnded(
  deps: { realtime: { bus: EventBus } },
  E_ID: number,
  sessionIds: readonly number[],
  reason: EndReason,
): void {
  if (sessionIds.length === 0) return;
  deps.realtime.bus.publish({ kind: 'sessionsEnded', E_ID, sessionIds: [...sessionIds], reason });
}
