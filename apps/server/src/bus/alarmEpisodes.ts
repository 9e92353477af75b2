import { NotificationTypes } from '@intercom/contract';
import { RedisFallback, type FallbackRedisClient, type ThrottleLog } from './redisFallback.js';

/** The alarms raised once per episode (a crossing of the threshold), not once per report. */
export type EpisodeKind = typeof NotificationTypes.lowBattery | typeof NotificationTypes.heartRate;

/**
 * Which users are inside an alarm episode (battery low, heart rate out of range): an alarm is raised
 * when an episode begins and not again until it has ended.
 */
export interface AlarmEpisodes {
  /** Starts the user's episode; false when one is already running (so no new alarm). */
  begin(kind: EpisodeKind, U_ID: number): Promise<boolean>;
  /** The value is back in range (or the alarm could not be stored): the next crossing alarms again. */
  end(kind: EpisodeKind, U_ID: number): Promise<void>;
}

const key = (kind: EpisodeKind, U_ID: number) => `${kind}:${U_ID}`;

/**
 * Episodes in this process. Seeded at start with the users whose battery or heart-rate alarm is
 * still unhandled in the database, so a restart does not raise those again.
 */
export class MemoryAlarmEpisodes implements AlarmEpisodes {
  private readonly running = new Set<string>();

  has(kind: EpisodeKind, U_ID: number): boolean {
    return this.running.has(key(kind, U_ID));
  }

  begin(kind: EpisodeKind, U_ID: number): Promise<boolean> {
    return Promise.resolve(this.beginNow(kind, U_ID));
  }

  beginNow(kind: EpisodeKind, U_ID: number): boolean {
    if (this.running.has(key(kind, U_ID))) return false;
    this.running.add(key(kind, U_ID));
    return true;
  }

  end(kind: EpisodeKind, U_ID: number): Promise<void> {
    this.running.delete(key(kind, U_ID));
    return Promise.resolve();
  }

  /** Seeds the episodes of the users whose battery or heart-rate alarm is still unhandled. */
  loadUnhandled(alarms: readonly { U_ID: number; NType: string }[]): void {
    for (const { U_ID, NType } of alarms) this.beginNow(NType as EpisodeKind, U_ID);
  }
}

/** A running episode is forgotten after this long without its end (a user that stopped reporting). */
const EPISODE_TTL_MS = 7 * 24 * 3600 * 1000;
/**
 * Every in-range report ends an episode; while the value stays in range the DEL is repeated at most
 * this often per user and kind, not at every report (ingest runs at thousands of reports a second).
 * It is repeated at all because the terminal may have begun an episode on another instance since.
 */
const END_REPEAT_MS = 60_000;

/**
 * Episodes shared by every instance (`REDIS_URL`): `<prefix>:<kind>:<U_ID>` is set (SET NX) when
 * an episode begins, so of two instances that see the crossing one raises the alarm; a restart or
 * a terminal that moves to another instance finds the episode still running. Redis down: episodes
 * are kept in memory on this instance (one warning) until Redis answers again; an episode begun in
 * memory meanwhile is not alarmed again afterwards on this instance.
 */
export class RedisAlarmEpisodes implements AlarmEpisodes {
  private readonly memory = new MemoryAlarmEpisodes();
  private readonly calls: RedisFallback;
  /** When this instance last ended an episode, per `kind:U_ID`. */
  private readonly endedAt = new Map<string, number>();

  constructor(
    private readonly redis: FallbackRedisClient & {
      set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<unknown>;
      del(key: string): Promise<number>;
    },
    private readonly prefix: string,
    log: ThrottleLog,
  ) {
    this.calls = new RedisFallback(redis, log, {
      down: 'alarm episodes: Redis unavailable; battery and heart-rate alarms are tracked per instance until it is back',
      back: 'alarm episodes: Redis is back; battery and heart-rate alarms are tracked across instances again',
    });
  }

  async begin(kind: EpisodeKind, U_ID: number): Promise<boolean> {
    this.endedAt.delete(key(kind, U_ID));
    const set = await this.calls.call(() => this.redis.set(this.key(kind, U_ID), '1', 'PX', EPISODE_TTL_MS, 'NX'));
    if (set === undefined) return this.memory.beginNow(kind, U_ID);
    if (this.memory.has(kind, U_ID)) return false;
    return set === 'OK';
  }

  async end(kind: EpisodeKind, U_ID: number, now = Date.now()): Promise<void> {
    const ended = this.endedAt.get(key(kind, U_ID));
    if (ended !== undefined && now - ended < END_REPEAT_MS) return;
    this.endedAt.set(key(kind, U_ID), now);
    await this.memory.end(kind, U_ID);
    await this.calls.call(() => this.redis.del(this.key(kind, U_ID)));
  }

  private key(kind: EpisodeKind, U_ID: number): string {
    return `${this.prefix}:${kind}:${U_ID}`;
  }
}
