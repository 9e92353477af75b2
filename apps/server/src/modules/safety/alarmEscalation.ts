import { ESCALATING_ALARM_TYPES, NotifyStates, type Notification } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface AlarmEscalationOptions {
  /** An alarm still `new` this long after it was raised is raised again (SAFETY_ESCALATE_MINUTES). */
  afterMs: number;
  /** Pushes the alarm to every console whose scope holds its enterprise (LiveState.raiseNotification). */
  push: (notification: Notification) => void;
  /** Alarms escalated in one sweep at most; the rest wait for the next. */
  batch?: number;
}

/**
 * Safety alarms (SOS, ManDown, LoneWorker, NoMovement) nobody acknowledged in time are raised again,
 * marked `Escalated`, to every console of the enterprise and of its parent enterprises (their scope
 * holds it). A sweep over the database, not a timer per alarm: a restart loses none, and the
 * conditional update lets one instance of several escalate each alarm, once.
 */
export class AlarmEscalation {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: AlarmEscalationOptions,
  ) {}

  /** Escalates what is due at `now`; returns how many alarms this call escalated. */
  async sweep(now = Date.now()): Promise<number> {
    const rows = await this.db
      .selectFrom('notification')
      .select(['N_ID', 'E_ID', 'U_ID', 'Phone', 'NType', 'Content', 'Latitude', 'Longitude', 'State', 'CreatedAt'])
      .where('State', '=', NotifyStates.new)
      .where('Escalated', '=', 0)
      .where('CreatedAt', '<=', now - this.options.afterMs)
      .where('NType', 'in', [...ESCALATING_ALARM_TYPES])
      .orderBy('CreatedAt')
      .limit(this.options.batch ?? 500)
      .execute();
    let escalated = 0;
    for (const row of rows) {
      const result = await this.db
        .updateTable('notification')
        .set({ Escalated: 1 })
        .where('N_ID', '=', row.N_ID)
        .where('Escalated', '=', 0)
        .where('State', '=', NotifyStates.new)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue; // another instance, or acknowledged meanwhile
      escalated += 1;
      this.options.push({ ...row, CreatedAt: Number(row.CreatedAt), Escalated: true });
    }
    return escalated;
  }
}
