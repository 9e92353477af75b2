import { FixTypes, type Fix, type Notification, type TerminalConfig } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { LocationValue } from '@intercom/contract';
import type { AppDeps } from '../appDeps.js';
import type { Clock } from '../core/clock.js';
import { GeofenceWatcher } from '../modules/geofence/index.js';
import { IncidentWatcher } from '../modules/incident/index.js';
import { AlarmEscalation, SafetyWatch } from '../modules/safety/index.js';
import { AlarmRaiser } from './alarms.js';
import { HistoryWriter } from './historyWriter.js';
import type { TerminalOptions } from './terminalOptions.js';
import { configFor, enterpriseProfile, terminalUserByDeviceId, type TerminalUser } from './terminalUsers.js';

/** A user that reports: who it is and its report interval (seconds, for GPS-online). */
export interface ReportingUser {
  U_ID: number;
  E_ID: number;
  Phone: string;
  UserName: string;
  interval: number;
}

/**
 * What watches users' fixes behind `recordFixes` (geofence crossings, safety timers, incident zones):
 * told of each batch once it is queued, with its newest fix. It never throws into ingest and never
 * makes the terminal wait: each queues its own work per user.
 */
export interface FixWatcher {
  fixes(user: ReportingUser, fixes: readonly Fix[], latest: Fix): void;
}

/**
 * `ok`: committed (acknowledge it); `busy`: the history queue is full; `shutting_down`: the writer
 * is closed; `failed`: the database refused the batch for good (not stored).
 */
export type IngestResult = 'ok' | 'busy' | 'shutting_down' | 'failed';

/** What the caller learns once the batch holding its rows has committed (or never will). */
const committed = (commit: Promise<void>): Promise<IngestResult> =>
  commit.then(
    () => 'ok',
    () => 'failed',
  );

/**
 * What the WebSocket gateway and the OsmAnd endpoint share: fixes into the history writer and
 * LiveState, status, heart rate and SOS into alarms, and the cached lookups of users and profiles.
 */
export class TerminalService {
  readonly writer: HistoryWriter;
  readonly alarms: AlarmRaiser;
  readonly geofences: GeofenceWatcher;
  /** Lone worker, no movement and escalation (docs/safety.md). */
  readonly safety: SafetyWatch;
  readonly incidents: IncidentWatcher;
  /** The fix consumers, told in this order. */
  private readonly fixWatchers: readonly FixWatcher[];
  private readonly deviceCache = new Map<string, { user: TerminalUser | undefined; at: number }>();
  private readonly profiles = new Map<number, Promise<LocationValue>>();

  constructor(
    private readonly deps: AppDeps,
    readonly options: TerminalOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    const onError = (error: unknown, context = 'history flush failed') => log.error({ err: error }, context);
    const { metrics } = deps;
    this.writer = new HistoryWriter(deps.db, {
      ...options,
      onError: (error) => {
        metrics.historyFailures.inc();
        onError(error);
      },
      onCommit: (positions, heartRates, seconds) => {
        metrics.fixesIngested.inc(positions);
        metrics.heartRatesIngested.inc(heartRates);
        metrics.historyCommit.observe(seconds);
      },
    });
    metrics.read('intercom_history_queue_rows', 'Rows waiting for the history writer', () => this.writer.queued);
    const episodes = deps.realtime.alarmEpisodes(log);
    this.alarms = new AlarmRaiser(deps.db, deps.realtime.live, episodes, {
      heartRate: deps.config.heartRate,
      onError,
      clock: deps.clock,
    });
    this.geofences = new GeofenceWatcher(deps.db, (...alarm) => this.alarms.raise(...alarm), {
      onError,
      clock: deps.clock,
      alarmCooldownMs: deps.config.geofence.alarmCooldownMs,
      onStateChanged: (E_ID, U_ID) => deps.realtime.bus.publish({ kind: 'geofencesChanged', E_ID, U_ID }),
    });
    this.safety = safetyWatch(deps, this.alarms, onError);
    this.safety.start(options.sweepMs);
    this.incidents = new IncidentWatcher(deps.db, deps.realtime.live, deps.realtime.bus, {
      onError,
      clock: deps.clock,
    });
    this.fixWatchers = [
      { fixes: (user, fixes) => this.geofences.check(user, fixes) },
      { fixes: (user, fixes) => this.safety.fixes(user, fixes) },
      { fixes: (user, _fixes, latest) => this.incidents.check(user, latest) },
    ];
  }

  private get live() {
    return this.deps.realtime.live;
  }

  /**
   * Queues validated fixes and resolves once they are stored. Queued, the newest becomes the user's
   * live position at once: the console need not wait for the commit.
   */
  recordFixes(user: ReportingUser, fixes: readonly Fix[]): Promise<IngestResult> {
    const rows = fixes.map((fix) => ({
      E_ID: user.E_ID,
      U_ID: user.U_ID,
      H_Time: fix.time,
      H_Type: fix.fixType ?? FixTypes.gps,
      C_Longitude: fix.lon,
      C_Latitude: fix.lat,
      Speed: fix.speed ?? null,
      Course: fix.course ?? null,
      Accuracy: fix.accuracy ?? null,
      Altitude: fix.altitude ?? null,
    }));
    const commit = this.writer.enqueue(rows);
    if (!commit) return Promise.resolve(this.refusal());
    let latest = fixes[0] as Fix;
    for (const fix of fixes) if (fix.time > latest.time) latest = fix;
    const { lat, lon, time, speed, course } = latest;
    this.live.reportPosition({ ...identity(user), lat, lon, time, speed, course, interval: user.interval });
    for (const watcher of this.fixWatchers) watcher.fixes(user, fixes, latest);
    return committed(commit);
  }

  private refusal(): IngestResult {
    return this.writer.isClosed ? 'shutting_down' : 'busy';
  }

  recordStatus(user: ReportingUser, status: { battery?: number | null; signal?: number | null }): void {
    this.live.reportStatus({ ...identity(user), battery: status.battery, signal: status.signal });
    this.alarms.battery(user, status.battery);
  }

  recordHeartRate(user: ReportingUser, value: number, time: number): Promise<IngestResult> {
    const row = { E_ID: user.E_ID, U_ID: user.U_ID, Phone: user.Phone, Value: value, H_Time: time };
    const commit = this.writer.enqueue([], [row]);
    if (!commit) return Promise.resolve(this.refusal());
    this.live.reportHeartRate(row);
    this.alarms.heartRate(user, value);
    return committed(commit);
  }

  sos(user: ReportingUser, text: string | undefined, at?: { lat: number; lon: number }): Promise<Notification> {
    return this.alarms.sos(user, text, at);
  }

  manDown(user: ReportingUser, at?: { lat: number; lon: number }): Promise<Notification> {
    return this.alarms.manDown(user, at);
  }

  /** The time of the terminals' rules (AppDeps.clock): heartbeats, refusals, the caches. */
  get clock(): Clock {
    return this.deps.clock;
  }

  /** A user by phone or device code (OsmAnd), cached for `userCacheMs`. */
  async userByDeviceId(id: string, now = this.deps.clock.now()): Promise<TerminalUser | undefined> {
    const cached = this.deviceCache.get(id);
    if (cached && now - cached.at < this.options.userCacheMs) return cached.user;
    const user = await terminalUserByDeviceId(this.deps.db, id);
    if (this.deviceCache.size > 100_000) this.deviceCache.clear();
    this.deviceCache.set(id, { user, at: now });
    return user;
  }

  /** The user's configuration; the enterprise profile is cached until `profileChanged`. */
  async configOf(user: Pick<TerminalUser, 'E_ID' | 'Caps' | 'GPSConfig'>): Promise<TerminalConfig> {
    let profile = this.profiles.get(user.E_ID);
    if (!profile) {
      profile = enterpriseProfile(this.deps.db, user.E_ID);
      this.profiles.set(user.E_ID, profile);
      profile.catch(() => this.profiles.delete(user.E_ID));
    }
    return configFor(user, await profile, this.options.heartbeatSeconds);
  }

  /** Users changed (GPS parameter, capabilities, freeze, delete): forget what is cached of them. */
  usersChanged(userIds: readonly number[]): void {
    const ids = new Set(userIds);
    for (const [key, entry] of this.deviceCache)
      if (!entry.user || ids.has(entry.user.U_ID)) this.deviceCache.delete(key);
  }

  /** An enterprise's profiles changed (or every enterprise's when none is named). */
  profileChanged(enterpriseIds?: readonly number[]): void {
    if (!enterpriseIds) this.profiles.clear();
    else for (const E_ID of enterpriseIds) this.profiles.delete(E_ID);
  }

  /** Writes every queued row and waits for alarms being stored. */
  async close(): Promise<void> {
    await this.writer.close();
    await this.safety.close();
    await this.geofences.settle();
    await this.incidents.settle();
    this.incidents.close();
    await this.alarms.settle();
  }
}

function identity(user: ReportingUser) {
  return { E_ID: user.E_ID, U_ID: user.U_ID, Phone: user.Phone, UserName: user.UserName };
}

function safetyWatch(deps: AppDeps, alarms: AlarmRaiser, onError: (error: unknown, context: string) => void) {
  const live = deps.realtime.live;
  const escalation = new AlarmEscalation(deps.db, {
    afterMs: deps.config.safetyEscalateMs,
    push: (notification) => live.raiseNotification(notification),
  });
  return new SafetyWatch(deps.db, (...alarm) => alarms.raise(...alarm), {
    onError,
    clock: deps.clock,
    escalation,
    position: (E_ID, U_ID) => live.user(E_ID, U_ID)?.position ?? null,
  });
}
