import {
  DEFAULT_LOCATION_VALUE,
  NotificationStates,
  gpsStaleAt,
  isGpsOnline,
  type HeartRate,
  type Notification,
  type VideoChange,
  type VideoSource,
} from '@intercom/contract';
import { systemClock, type Clock, type ClockTimer } from '../core/clock.js';
import { onEach, type EventBus, type LiveUser } from '../bus/eventBus.js';
import {
  onlineUserOf,
  sameGpsRecord,
  type LiveChange,
  type LiveSnapshot,
  type PositionReport,
  type StatusReport,
  type UserRef,
} from './liveRecords.js';

export interface LiveStateOptions {
  /** Unhandled alarms kept per enterprise; the oldest go first. */
  maxNotificationsPerEnterprise?: number;
  /** How often fresh fixes are checked for turning stale (a GPS delta with gpsOnline false), ms. */
  staleSweepMs?: number;
  /** The time of the stale sweep and of online stamps (AppDeps.clock; tests pass a FakeClock). */
  clock?: Clock;
}

interface UserEntry {
  user: LiveUser;
  /** The OnlineUser text while it stays the same (a snapshot lists every online user: 50,000 texts). */
  onlineJson: string | null;
  /** While the fix is GPS-online: when it turns stale (epoch ms); otherwise null. */
  staleAt: number | null;
}

function bucket<K, V>(map: Map<number, Map<K, V>>, E_ID: number): Map<K, V> {
  let inner = map.get(E_ID);
  if (!inner) {
    inner = new Map();
    map.set(E_ID, inner);
  }
  return inner;
}

/**
 * The latest position and status of every terminal user, the chat-online set, unhandled alarms and
 * the latest heart rate per phone, per enterprise. The terminal gateway calls the `report*`,
 * `setOnline` and `raiseNotification` functions; they publish on the event bus, and every instance's
 * LiveState applies the event and tells the hub what changed.
 */
export class LiveState {
  private readonly users = new Map<number, Map<number, UserEntry>>();
  private readonly onlineCounts = new Map<number, number>();
  /** Users per enterprise whose fix is GPS-online now (the `fresh` entries, counted). */
  private readonly gpsOnlineCounts = new Map<number, number>();
  private readonly notifications = new Map<number, Map<number, string>>();
  private readonly heartRates = new Map<number, Map<string, { time: number; json: string }>>();
  private readonly videos = new Map<number, Map<number, string>>();
  private readonly listeners = new Set<(change: LiveChange) => void>();
  /**
   * Counts changes of the online users as snapshots list them (a login, a logout, an online user
   * renamed): the same number, the same online users (ScopeFeed keeps their packed block). Read only.
   */
  onlineRevision = 0;
  /** Users whose fix is GPS-online now: the stale sweep looks at these only. */
  private readonly fresh = new Set<UserEntry>();
  private readonly maxNotifications: number;
  private readonly clock: Clock;
  private readonly unsubscribe: () => void;
  private readonly staleTimer: ClockTimer;

  constructor(
    private readonly bus: EventBus,
    options: LiveStateOptions = {},
  ) {
    this.maxNotifications = options.maxNotificationsPerEnterprise ?? 500;
    this.clock = options.clock ?? systemClock;
    this.unsubscribe = this.subscribe(bus);
    this.staleTimer = this.clock.interval(() => this.sweepStale(), options.staleSweepMs ?? 1000);
  }

  // ---- what the terminal gateway calls ----

  /** A new fix. An older fix than the one held (a late batch upload) does not replace it. */
  reportPosition(report: PositionReport): void {
    if (!Number.isFinite(report.lat) || !Number.isFinite(report.lon) || !Number.isFinite(report.time)) {
      throw new RangeError('position needs finite lat, lon and time');
    }
    const current = this.entry(report.E_ID, report.U_ID)?.user;
    if (current?.position && current.position.time > report.time) return;
    const user = this.merged(report, current);
    user.position = {
      lat: report.lat,
      lon: report.lon,
      time: report.time,
      speed: report.speed ?? null,
      course: report.course ?? null,
      interval: report.interval ?? current?.position?.interval ?? DEFAULT_LOCATION_VALUE.interval,
    };
    this.bus.publish({ kind: 'user', E_ID: report.E_ID, user });
  }

  /** Battery, signal or talking; fields left out keep their value. Nothing is published if nothing changed. */
  reportStatus(report: StatusReport): void {
    const current = this.entry(report.E_ID, report.U_ID)?.user;
    const user = this.merged(report, current);
    if (report.battery !== undefined) user.battery = report.battery;
    if (report.signal !== undefined) user.signal = report.signal;
    if (report.talking !== undefined) user.talking = report.talking;
    if (current && JSON.stringify(current) === JSON.stringify(user)) return;
    this.bus.publish({ kind: 'user', E_ID: report.E_ID, user });
  }

  /**
   * A new report interval (a configuration push): the user's GPS-online state follows it at once,
   * on the map and in the count, without waiting for the next fix.
   */
  setInterval(ref: UserRef, interval: number): void {
    const current = this.entry(ref.E_ID, ref.U_ID)?.user;
    if (!current?.position || current.position.interval === interval) return;
    const user = this.merged(ref, current);
    user.position = { ...current.position, interval };
    this.bus.publish({ kind: 'user', E_ID: ref.E_ID, user });
  }

  /** Chat-online state; a repeat of the current state publishes nothing. */
  setOnline(ref: UserRef, online: boolean, time = this.clock.now()): void {
    const current = this.entry(ref.E_ID, ref.U_ID)?.user;
    if ((current?.online ?? false) === online) return;
    const user = this.merged(ref, current);
    user.online = online;
    user.onlineAt = time;
    if (!online) user.talking = false;
    this.bus.publish({ kind: 'user', E_ID: ref.E_ID, user });
  }

  /**
   * A stored alarm (the caller has written the notification row and knows its N_ID), new or with a
   * changed State. Unhandled ones (State `new`) are part of every snapshot until handled.
   */
  raiseNotification(notification: Notification): void {
    this.bus.publish({ kind: 'notification', E_ID: notification.E_ID, notification });
  }

  reportHeartRate(heartRate: HeartRate): void {
    this.bus.publish({ kind: 'heartRate', E_ID: heartRate.E_ID, heartRate });
  }

  /** A terminal's video came online (with its codecs) or went offline. */
  setVideo(source: VideoSource, online: boolean): void {
    this.bus.publish({ kind: 'video', E_ID: source.E_ID, video: { ...source, online } });
  }

  // ---- reads ----

  user(E_ID: number, U_ID: number): LiveUser | undefined {
    const user = this.entry(E_ID, U_ID)?.user;
    return user ? structuredClone(user) : undefined;
  }

  /** Whether the user is chat-online (a terminal logged in on any instance). */
  isOnline(E_ID: number, U_ID: number): boolean {
    return this.users.get(E_ID)?.get(U_ID)?.user.online ?? false;
  }

  /** The enterprise's chat-online users as held now: read them, never change them. */
  onlineUsersOf(E_ID: number): Readonly<LiveUser>[] {
    const online: LiveUser[] = [];
    for (const entry of this.users.get(E_ID)?.values() ?? []) if (entry.user.online) online.push(entry.user);
    return online;
  }

  onlineCount(enterpriseIds: Iterable<number>): number {
    let count = 0;
    for (const E_ID of enterpriseIds) count += this.onlineCounts.get(E_ID) ?? 0;
    return count;
  }

  /**
   * Users whose latest fix is GPS-online (DESIGN.md section 6), the same on every instance: each
   * applies every instance's fixes from the bus, so the count does not depend on where terminals
   * or consoles are connected.
   */
  gpsOnlineCount(enterpriseIds: Iterable<number>): number {
    this.sweepStale();
    let count = 0;
    for (const E_ID of enterpriseIds) count += this.gpsOnlineCounts.get(E_ID) ?? 0;
    return count;
  }

  snapshot(enterpriseIds: Iterable<number>): LiveSnapshot {
    this.sweepStale();
    const snapshot: LiveSnapshot = {
      fixes: [],
      online: [],
      onlineUsers: [],
      notifications: [],
      heartRates: [],
      videos: [],
    };
    for (const E_ID of enterpriseIds) {
      for (const entry of this.users.get(E_ID)?.values() ?? []) {
        if (entry.user.position) snapshot.fixes.push({ user: entry.user, gpsOnline: entry.staleAt !== null });
        if (entry.user.online) {
          const user = onlineUserOf(entry.user);
          snapshot.online.push((entry.onlineJson ??= JSON.stringify(user)));
          snapshot.onlineUsers.push(user);
        }
      }
      snapshot.notifications.push(...(this.notifications.get(E_ID)?.values() ?? []));
      for (const heartRate of this.heartRates.get(E_ID)?.values() ?? []) snapshot.heartRates.push(heartRate.json);
      snapshot.videos.push(...(this.videos.get(E_ID)?.values() ?? []));
    }
    return snapshot;
  }

  onChange(listener: (change: LiveChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The unhandled alarms of the database (oldest first), so a restarted instance still shows them. */
  showUnhandled(alarms: readonly Notification[]): number {
    for (const alarm of alarms) this.applyNotification(alarm);
    return alarms.length;
  }

  /**
   * Fixes that turned stale since the last sweep: their records are rebuilt with gpsOnline false and
   * pushed as GPS deltas. Every instance sweeps its own copy of the state, so each hub pushes its own.
   */
  sweepStale(now = this.clock.now()): void {
    for (const entry of this.fresh) {
      if (entry.staleAt !== null && entry.staleAt > now) continue;
      this.unmarkFresh(entry);
      entry.staleAt = null;
      const { user } = entry;
      if (!user.position) continue;
      const gpsOnline = isGpsOnline(user.position.time, user.position.interval, now);
      this.emit({ kind: 'gps', E_ID: user.E_ID, key: user.U_ID, fix: { user, gpsOnline } });
    }
  }

  close(): void {
    this.staleTimer.cancel();
    this.unsubscribe();
    this.listeners.clear();
  }

  // ---- applying events from the bus ----

  /** The bus events that are live state, and incident changes for the hub; not sessionsEnded, terminalLogin, ... */
  private subscribe(bus: EventBus): () => void {
    return onEach(bus, {
      user: (event) => this.applyUser(event.user),
      users: (event) => {
        for (const user of event.users) if (user.E_ID === event.E_ID) this.applyUser(user);
      },
      notification: (event) =>
        this.emit({
          kind: 'notification',
          E_ID: event.E_ID,
          key: event.notification.N_ID,
          json: this.applyNotification(event.notification),
        }),
      heartRate: (event) => this.applyHeartRate(event.heartRate),
      video: (event) => this.applyVideo(event.video),
      incident: ({ E_ID, IN_ID, change }) =>
        this.emit({ kind: 'incident', E_ID, key: IN_ID, json: JSON.stringify({ IN_ID, E_ID, change }) }),
    });
  }

  /**
   * A user's new state. Its entry is kept and updated in place (50,000 of them change every
   * second): a fix that stays GPS-online leaves the fresh set and the count as they are.
   */
  private applyUser(user: LiveUser): void {
    const users = bucket(this.users, user.E_ID);
    const previous = users.get(user.U_ID);
    const position = user.position;
    const gpsOnline = position !== null && isGpsOnline(position.time, position.interval, this.clock.now());
    const wasOnline = previous?.user.online ?? false;
    // Whether the user's GpsRecord changed (a fix that says the same is not pushed again).
    const gpsChanged =
      position !== null && (!previous || !sameGpsRecord(previous.user, previous.staleAt !== null, user, gpsOnline));
    let entry = previous;
    if (entry) {
      const sameOnline =
        entry.user.online === user.online &&
        entry.user.onlineAt === user.onlineAt &&
        entry.user.Phone === user.Phone &&
        entry.user.UserName === user.UserName;
      entry.user = user;
      if (!sameOnline) entry.onlineJson = null;
      if (!sameOnline && (wasOnline || user.online)) this.onlineRevision += 1;
    } else {
      entry = { user, onlineJson: null, staleAt: null };
      users.set(user.U_ID, entry);
      if (user.online) this.onlineRevision += 1;
    }
    if (gpsOnline) {
      entry.staleAt = gpsStaleAt(position.time, position.interval);
      this.markFresh(entry);
    } else {
      entry.staleAt = null;
      this.unmarkFresh(entry);
    }
    if (wasOnline !== user.online) {
      this.onlineCounts.set(user.E_ID, (this.onlineCounts.get(user.E_ID) ?? 0) + (user.online ? 1 : -1));
      entry.onlineJson = JSON.stringify(onlineUserOf(user));
      this.emit({ kind: 'online', E_ID: user.E_ID, key: user.U_ID, json: entry.onlineJson });
    }
    if (gpsChanged) this.emit({ kind: 'gps', E_ID: user.E_ID, key: user.U_ID, fix: { user, gpsOnline } });
  }

  private applyNotification(notification: Notification): string {
    const json = JSON.stringify(notification);
    const unhandled = bucket(this.notifications, notification.E_ID);
    unhandled.delete(notification.N_ID);
    if (notification.State === NotificationStates.new) {
      unhandled.set(notification.N_ID, json);
      if (unhandled.size > this.maxNotifications) {
        const oldest = unhandled.keys().next();
        if (!oldest.done) unhandled.delete(oldest.value);
      }
    }
    return json;
  }

  private applyHeartRate(heartRate: HeartRate): void {
    const latest = bucket(this.heartRates, heartRate.E_ID);
    const json = JSON.stringify(heartRate);
    const previous = latest.get(heartRate.Phone);
    if (previous && previous.time > heartRate.H_Time) return;
    latest.set(heartRate.Phone, { time: heartRate.H_Time, json });
    this.emit({ kind: 'heartRate', E_ID: heartRate.E_ID, key: heartRate.Phone, json });
  }

  private applyVideo(change: VideoChange): void {
    const { online, ...source } = change;
    const list = bucket(this.videos, source.E_ID);
    if (online) list.set(source.uid, JSON.stringify(source));
    else if (!list.delete(source.uid)) return;
    this.emit({ kind: 'video', E_ID: source.E_ID, key: source.uid, json: JSON.stringify(change) });
  }

  private markFresh(entry: UserEntry): void {
    if (this.fresh.has(entry)) return;
    this.fresh.add(entry);
    const E_ID = entry.user.E_ID;
    this.gpsOnlineCounts.set(E_ID, (this.gpsOnlineCounts.get(E_ID) ?? 0) + 1);
  }

  private unmarkFresh(entry: UserEntry): void {
    if (!this.fresh.delete(entry)) return;
    const E_ID = entry.user.E_ID;
    this.gpsOnlineCounts.set(E_ID, (this.gpsOnlineCounts.get(E_ID) ?? 1) - 1);
  }

  private emit(change: LiveChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private entry(E_ID: number, U_ID: number): UserEntry | undefined {
    return this.users.get(E_ID)?.get(U_ID);
  }

  /** A copy of the current entry (or a fresh one) with the identity fields of `ref` applied. */
  private merged(ref: UserRef, current: LiveUser | undefined): LiveUser {
    const base: LiveUser = current
      ? { ...current, position: current.position ? { ...current.position } : null }
      : {
          E_ID: ref.E_ID,
          U_ID: ref.U_ID,
          Phone: '',
          UserName: '',
          position: null,
          battery: null,
          signal: null,
          online: false,
          onlineAt: 0,
          talking: false,
        };
    if (ref.Phone !== undefined) base.Phone = ref.Phone;
    if (ref.UserName !== undefined) base.UserName = ref.UserName;
    return base;
  }
}
