import { isGpsOnline } from '@intercom/contract';

interface Entry {
  E_ID: number;
  lastFix: number;
  intervalMs: number;
  online: boolean;
}

export interface GpsChange {
  E_ID: number;
  U_ID: number;
  gpsOnline: boolean;
}

/**
 * GPS-online state of every user that reported a fix on this instance: online while its latest fix
 * is newer than 1.5 times its report interval. `fix` and `sweep` return the transitions, so the
 * caller can count and log them; chat-online lives in LiveState.
 */
export class GpsPresence {
  private readonly users = new Map<number, Entry>();
  private readonly counts = new Map<number, number>();

  fix(E_ID: number, U_ID: number, time: number, intervalSeconds: number, now = Date.now()): GpsChange | null {
    const entry = this.users.get(U_ID) ?? { E_ID, lastFix: 0, intervalMs: intervalSeconds * 1000, online: false };
    entry.lastFix = Math.max(entry.lastFix, time);
    entry.intervalMs = intervalSeconds * 1000;
    this.users.set(U_ID, entry);
    return this.update(U_ID, entry, now);
  }

  /** A changed report interval (configuration push). */
  setInterval(U_ID: number, intervalSeconds: number): void {
    const entry = this.users.get(U_ID);
    if (entry) entry.intervalMs = intervalSeconds * 1000;
  }

  /** Users whose fix went stale since the last sweep. */
  sweep(now = Date.now()): GpsChange[] {
    const changes: GpsChange[] = [];
    for (const [U_ID, entry] of this.users) {
      const change = this.update(U_ID, entry, now);
      if (change) changes.push(change);
      if (!entry.online) this.users.delete(U_ID);
    }
    return changes;
  }

  isOnline(U_ID: number, now = Date.now()): boolean {
    const entry = this.users.get(U_ID);
    return entry !== undefined && fresh(entry, now);
  }

  count(enterpriseIds: Iterable<number>): number {
    let total = 0;
    for (const E_ID of enterpriseIds) total += this.counts.get(E_ID) ?? 0;
    return total;
  }

  private update(U_ID: number, entry: Entry, now: number): GpsChange | null {
    const online = fresh(entry, now);
    if (online === entry.online) return null;
    entry.online = online;
    this.counts.set(entry.E_ID, (this.counts.get(entry.E_ID) ?? 0) + (online ? 1 : -1));
    return { E_ID: entry.E_ID, U_ID, gpsOnline: online };
  }
}

function fresh(entry: Entry, now: number): boolean {
  return isGpsOnline(entry.lastFix, entry.intervalMs / 1000, now);
}
