import { wgs84ToGcj02, type GpsRecord } from '@intercom/contract';
import type { Bounds } from '../hubWorkerMessages';
import type { LiveStore } from '../LiveStore';
import type { HubMessage } from '../liveSnapshot';
import { recordState } from '../recordState';
import { userBatch } from './userBatch';
import { sosUserIds } from '../userMapState';
import { UserPointIndex, type UserPoint } from './UserPointIndex';
import { UserSourceFeeder, type FeederTimings } from './UserSourceFeeder';
import type { UserBatch } from './userBatch';

/**
 * Sends a map's batch of users and resolves once the map has drawn it (its tiles reloaded), or
 * rejects when the map is gone.
 */
export type BatchSink = (users: UserBatch, bounds: Bounds | undefined) => Promise<void>;

/**
 * One map's users, kept in the hub worker: the points the map holds, and the batches that bring it
 * up to date after each burst of the LiveStore (UserSourceFeeder paces them by the map's drawing).
 * `gcj02` shifts every point for AMap tiles. A snapshot is one batch that replaces everything;
 * it carries the users' bounds, which the map frames its first view by. A snapshot without users (a
 * map opened before any terminal reported) leaves the bounds to the first batch that has some.
 */
export class UserFeed {
  private readonly index = new UserPointIndex();
  private readonly feeder: UserSourceFeeder;
  private readonly sentNames = new Map<number, string>();
  private sos = new Set<number>();
  /** Some batch has carried bounds: only snapshots carry them from then on. */
  private boundsSent = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: LiveStore,
    private readonly gcj02: boolean,
    sink: BatchSink,
    timings?: FeederTimings,
  ) {
    const send = (upsert: readonly number[], remove: readonly number[], replace: boolean) => {
      const users = userBatch((id) => this.index.get(id), upsert, remove, replace, this.sentNames);
      const bounds = replace || !this.boundsSent ? this.index.bounds() : undefined;
      if (bounds) this.boundsSent = true;
      return sink(users, bounds);
    };
    this.feeder = new UserSourceFeeder({ send }, this.index, timings);
    // The held state comes first as a snapshot, then every burst.
    this.unsubscribe = store.subscribeMessages((messages) => this.take(messages));
  }

  stop(): void {
    this.unsubscribe();
    this.feeder.stop();
  }

  private pointOf(record: GpsRecord): UserPoint {
    const [lon, lat] = this.gcj02 ? wgs84ToGcj02(record.lon, record.lat) : [record.lon, record.lat];
    return { lon, lat, name: record.UserName, state: recordState(record, this.sos) };
  }

  private take(messages: readonly HubMessage[]): void {
    const snapshot = this.store.getSnapshot();
    const nextSos = sosUserIds(snapshot.alarms.values());
    const touched = new Set<number>();
    for (const id of nextSos) if (!this.sos.has(id)) touched.add(id);
    for (const id of this.sos) if (!nextSos.has(id)) touched.add(id);
    this.sos = nextSos;
    if (messages.some((message) => message.type === 'GPSArray')) {
      const points: [number, UserPoint][] = [];
      for (const record of snapshot.positions.values()) points.push([record.U_ID, this.pointOf(record)]);
      this.index.replace(points);
      this.feeder.replaceAll();
      return;
    }
    for (const message of messages) {
      if (message.type === 'GPS') for (const record of message.data) touched.add(record.U_ID);
    }
    if (touched.size === 0) return;
    const changes: [number, UserPoint | undefined][] = [];
    for (const id of touched) {
      const record = snapshot.positions.get(id);
      changes.push([id, record ? this.pointOf(record) : undefined]);
    }
    this.feeder.apply(this.index.apply(changes));
  }
}
