import { parseAlarmDetail, type Notification } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { alarmsToEscalate, markEscalated } from '../notify/index.js';

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

  /** Escalates what is due at `now` (the watch's tick time); returns how many alarms this call escalated. */
  async sweep(now: number): Promise<number> {
    const rows = await alarmsToEscalate(this.db, now - this.options.afterMs, this.options.batch ?? 500);
    let escalated = 0;
    for (const { Detail, ...row } of rows) {
      if (!(await markEscalated(this.db, row.N_ID))) continue; // another instance, or acknowledged meanwhile
      escalated += 1;
      const detail = parseAlarmDetail(Detail);
      this.options.push({
        ...row,
        CreatedAt: Number(row.CreatedAt),
        Escalated: true,
        ...(detail && { Detail: detail }),
      });
    }
    return escalated;
  }
}
