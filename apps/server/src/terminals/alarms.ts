import {
  AlarmDetailKeys,
  LOW_BATTERY_PERCENT,
  NotificationTypes,
  SafetyAlarmTypes,
  type Notification,
} from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { UserQueue } from '../core/userQueue.js';
import type { DB } from '../db/schema.js';
import { alarmText, insertNotification, type AlarmContent, type NewNotification } from '../modules/notify/index.js';
import type { LiveState } from '../live/liveState.js';
import type { AlarmEpisodes, EpisodeKind } from '../bus/alarmEpisodes.js';

/** The user an alarm is about. */
export interface AlarmSubject {
  E_ID: number;
  U_ID: number;
  Phone: string;
}

export interface AlarmOptions {
  /** Heart rates outside [low, high] raise an alarm. */
  heartRate: { low: number; high: number };
  onError: (error: unknown, context: string) => void;
  /** The time alarms are stamped with (AppDeps.clock). */
  clock: Clock;
}

/**
 * The gateway's reasons for going offline (TerminalGateway.closed) as keys, so the reader's language
 * says them; a reason not listed here is stored as it is.
 */
function offlineContent(why: string): AlarmContent {
  if (why === 'Connection lost') return alarmText(AlarmDetailKeys.connectionLost, {}, why);
  if (why === 'Disconnected (flooding)') return alarmText(AlarmDetailKeys.flooding, {}, why);
  const heartbeat = /^No heartbeat for (\d+) s$/.exec(why);
  return heartbeat ? alarmText(AlarmDetailKeys.noHeartbeat, { seconds: Number(heartbeat[1]) }, why) : why;
}

/** A low-battery alarm re-arms once the level is back this far above the threshold (no flapping at 15/16 %). */
const BATTERY_REARM = LOW_BATTERY_PERCENT + 5;

/**
 * Alarms the platform raises itself (DESIGN.md section 6): SOS, battery at or below 15 %, a user
 * going offline while it was online, heart rate out of range. Each is stored as a notification row
 * (`State` new) and then pushed through LiveState. Battery and heart rate raise once per crossing:
 * whether a user is inside an episode is kept in `episodes` (shared in Redis with REDIS_URL), so
 * neither a second instance, nor a restart, nor a terminal that moves raises it again.
 */
export class AlarmRaiser {
  private readonly pending = new Set<Promise<unknown>>();
  /** Each user's alarm work, in the order its reports came (see inOrder). */
  private readonly queue: UserQueue;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly live: LiveState,
    private readonly episodes: AlarmEpisodes,
    private readonly options: AlarmOptions,
  ) {
    this.queue = new UserQueue(options.onError, 'alarm');
  }

  /** Stores and pushes one alarm; the position defaults to the user's latest. */
  raise(
    subject: AlarmSubject,
    NType: string,
    Content: AlarmContent,
    at?: { lat: number; lon: number },
  ): Promise<Notification> {
    return this.track(this.store(subject, NType, Content, at));
  }

  private async store(subject: AlarmSubject, NType: string, Content: AlarmContent, at?: { lat: number; lon: number }) {
    const position = at ?? this.live.user(subject.E_ID, subject.U_ID)?.position ?? undefined;
    const input: NewNotification = {
      E_ID: subject.E_ID,
      U_ID: subject.U_ID,
      Phone: subject.Phone,
      NType,
      Content,
      Latitude: position?.lat ?? null,
      Longitude: position?.lon ?? null,
      CreatedAt: this.options.clock.now(),
    };
    const notification = await insertNotification(this.db, input);
    this.live.raiseNotification(notification);
    return notification;
  }

  sos(subject: AlarmSubject, text: string | undefined, at?: { lat: number; lon: number }): Promise<Notification> {
    // The worker's own words stay as they are; without any, the reader's language says SOS.
    return this.raise(subject, NotificationTypes.sos, text?.trim() || alarmText(AlarmDetailKeys.sos, {}, 'SOS'), at);
  }

  /** A fall the terminal detected: treated like SOS by the consoles (URGENT_ALARM_TYPES). */
  manDown(subject: AlarmSubject, at?: { lat: number; lon: number }): Promise<Notification> {
    return this.raise(subject, SafetyAlarmTypes.manDown, alarmText(AlarmDetailKeys.manDown, {}, 'Man down'), at);
  }

  /** A battery report: an alarm when the level falls to 15 % or below (once until it is back at 20 %). */
  battery(subject: AlarmSubject, percent: number | null | undefined): void {
    if (percent === null || percent === undefined) return;
    const kind = NotificationTypes.lowBattery;
    if (percent >= BATTERY_REARM)
      this.inOrder(subject, () => this.episodes.end(kind, subject.U_ID), 'low-battery alarm');
    if (percent > LOW_BATTERY_PERCENT) return;
    const level = Math.round(percent);
    const content = alarmText(AlarmDetailKeys.battery, { percent: level }, `Battery ${level}%`);
    this.inOrder(subject, () => this.once(kind, subject, content), 'low-battery alarm');
  }

  /** A heart-rate reading: an alarm when it leaves the range (once until it is back inside). */
  heartRate(subject: AlarmSubject, value: number): void {
    const { low, high } = this.options.heartRate;
    const kind = NotificationTypes.heartRate;
    if (value >= low && value <= high) {
      this.inOrder(subject, () => this.episodes.end(kind, subject.U_ID), 'heart-rate alarm');
      return;
    }
    const english = `Heart rate ${value} bpm (range ${low}-${high})`;
    const content = alarmText(AlarmDetailKeys.heartRate, { value, low, high }, english);
    this.inOrder(subject, () => this.once(kind, subject, content), 'heart-rate alarm');
  }

  /** The user went offline without logging out (heartbeat timeout, connection lost). */
  offline(subject: AlarmSubject, why: string): void {
    this.inOrder(subject, () => this.raise(subject, NotificationTypes.offline, offlineContent(why)), 'offline alarm');
  }

  /** Waits for alarms still being written (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Raises the alarm if this crossing begins an episode; one that could not be stored ends it again. */
  private async once(kind: EpisodeKind, subject: AlarmSubject, Content: AlarmContent): Promise<void> {
    if (!(await this.episodes.begin(kind, subject.U_ID))) return;
    try {
      await this.raise(subject, kind, Content);
    } catch (error) {
      await this.episodes.end(kind, subject.U_ID);
      throw error;
    }
  }

  /**
   * Runs `task` after the user's earlier alarm work: a user's reports are decided (episode begun or
   * ended) and stored in the order they came, so a later alarm never gets the earlier number, and
   * the end of an episode is never overtaken by the begin of the next one.
   */
  private inOrder(subject: AlarmSubject, task: () => Promise<unknown>, context: string): void {
    void this.track(this.queue.run(subject.U_ID, task, context));
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    const tracked = promise.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
    return promise;
  }
}
