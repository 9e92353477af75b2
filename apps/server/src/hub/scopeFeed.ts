import { ONLINE_BLOCK_TYPE, packOnlineUsers, type OnlineBlockData } from '@intercom/contract';
import type { Clock, ClockTimer } from '../core/clock.js';
import type { HubWire, Payload } from './hubWire.js';
import { GpsBlockMessage, SlowFieldWatch } from './gpsBlocks.js';
import { ValueMessage } from './valueMessage.js';
import { gpsJsonOfFix, type LiveChange, type LiveFix, type LiveSnapshot } from '../live/liveRecords.js';
import type { LiveState } from '../live/liveState.js';
import { nativeDeflate } from './nativeDeflate.js';

/** Alarms waiting for the next push beyond this count are replaced by a fresh snapshot. */
const MAX_PENDING_NOTIFICATIONS = 1000;

export function pushMessage(type: string, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"data":${dataJson}}`;
}

export function jsonList(jsons: Iterable<string>): string {
  return `[${[...jsons].join(',')}]`;
}

/** The GpsRecord texts of fixes, as one JSON list. */
function fixList(fixes: Iterable<LiveFix>): string {
  const texts: string[] = [];
  for (const fix of fixes) texts.push(gpsJsonOfFix(fix));
  return `[${texts.join(',')}]`;
}

/**
 * Texts built once, on first use, and shared by the scope's connections: invocation records per
 * (target, argument), and the messages of a push or snapshot by name.
 */
class RecordCache {
  /** By protocol, then target, then argument. */
  private readonly records = new Map<string, Map<string, Payload>>();
  private readonly texts = new Map<string, string>();

  protected memo(key: string, make: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = make();
      this.texts.set(key, text);
    }
    return text;
  }

  record(target: string, argument: string, wire: HubWire): Payload {
    const key = `${wire.protocol}:${target}`;
    let byArgument = this.records.get(key);
    if (!byArgument) {
      byArgument = new Map();
      this.records.set(key, byArgument);
    }
    let record = byArgument.get(argument);
    if (record === undefined) {
      record = wire.invocation(target, { json: argument });
      byArgument.set(argument, record);
    }
    return record;
  }
}

/**
 * The texts of a scope's snapshot, each built on first use and kept until the scope changes: a
 * FuncNotify subscription needs only `online` and `notifys`, a FuncGPS one all but `online`, and at
 * 50,000 users `gpsArray` alone is 12 MB of text.
 */
export class ScopeSnapshot extends RecordCache {
  readonly count: number;
  private block: GpsBlockMessage | null = null;
  private packedOnline: ValueMessage<OnlineBlockData> | null = null;

  /**
   * `packedOnline`: the online users' block of an earlier snapshot with the same online users, or
   * null; `onPacked` hears of one this snapshot packed.
   */
  constructor(
    private readonly snapshot: LiveSnapshot,
    packedOnline: ValueMessage<OnlineBlockData> | null = null,
    private readonly onPacked: (block: ValueMessage<OnlineBlockData>) => void = () => undefined,
  ) {
    super();
    this.count = snapshot.online.length;
    this.packedOnline = packedOnline;
  }

  /** What MessagePack connections get instead of `gpsArray`: every user's fields, and a position block. */
  get gpsBlock(): GpsBlockMessage {
    this.block ??= GpsBlockMessage.of(this.snapshot.fixes, [], true);
    return this.block;
  }

  get fixes(): readonly LiveFix[] {
    return this.snapshot.fixes;
  }

  get gpsArray(): string {
    return this.memo('GPSArray', () => pushMessage('GPSArray', fixList(this.snapshot.fixes)));
  }

  get numOnline(): string {
    return this.memo('NumOnlineUser', () => pushMessage('NumOnlineUser', String(this.count)));
  }

  get onlineUsers(): string {
    return this.memo('OnlineUser', () => pushMessage('OnlineUser', this.onlineList));
  }

  /**
   * What packed MessagePack subscriptions get instead of `onlineUsers` (FuncGPS) and `online`
   * (FuncNotify): the same users packed as columns, with the count (contract onlineBlock.ts).
   */
  get onlineBlock(): ValueMessage<OnlineBlockData> {
    if (!this.packedOnline) {
      const data = packOnlineUsers(this.snapshot.onlineUsers, this.count, nativeDeflate);
      this.packedOnline = new ValueMessage(ONLINE_BLOCK_TYPE, data, data.packed.length);
      this.onPacked(this.packedOnline);
    }
    return this.packedOnline;
  }

  get notifys(): string {
    return this.memo('Notifys', () => pushMessage('Notifys', jsonList(this.snapshot.notifications)));
  }

  get heartRate(): string {
    return this.memo('HeartRate', () => pushMessage('HeartRate', jsonList(this.snapshot.heartRates)));
  }

  get videos(): string {
    return this.memo('Videos', () => pushMessage('Videos', jsonList(this.snapshot.videos)));
  }

  get online(): string {
    return this.memo('Online', () => pushMessage('Online', `{"count":${this.count},"users":${this.onlineList}}`));
  }

  private get onlineList(): string {
    return this.memo('onlineList', () => jsonList(this.snapshot.online));
  }
}

/**
 * What a scope gathered since its last push: the latest fix per user, the latest text per alarm,
 * phone or video source. Keyed, so that pushes a slow connection could not take yet merge into one
 * (conflation): a later one replaces an earlier one of the same key.
 */
export interface Pending {
  /** The latest fix per user: JSON connections get their texts, MessagePack ones a position block. */
  fixes: Map<number, LiveFix>;
  /** Fixes whose user's slow fields changed (MessagePack connections get these fields with the block). */
  slow: Map<number, LiveFix>;
  online: Map<number, string>;
  notifications: Map<number, string>;
  heartRates: Map<string, string>;
  videos: Map<number, string>;
  /** IncidentPush texts, by IN_ID. */
  incidents: Map<number, string>;
}

export function emptyPending(): Pending {
  return {
    fixes: new Map(),
    slow: new Map(),
    online: new Map(),
    notifications: new Map(),
    heartRates: new Map(),
    videos: new Map(),
    incidents: new Map(),
  };
}

/** Alarms waiting for a push, to keep in the order they changed: a changed one moves to the end. */
function setLast<K>(map: Map<K, string>, key: K, json: string): void {
  map.delete(key);
  map.set(key, json);
}

/**
 * Adds `from` to `into`, the later text of a key replacing the earlier. Returns false when more
 * alarms wait than MAX_PENDING_NOTIFICATIONS (a snapshot is cheaper to send then).
 */
export function mergePending(into: Pending, from: Pending): boolean {
  for (const [key, fix] of from.fixes) into.fixes.set(key, fix);
  for (const [key, fix] of from.slow) into.slow.set(key, fix);
  for (const [key, json] of from.online) into.online.set(key, json);
  for (const [key, json] of from.heartRates) into.heartRates.set(key, json);
  for (const [key, json] of from.videos) into.videos.set(key, json);
  for (const [key, json] of from.incidents) into.incidents.set(key, json);
  for (const [key, json] of from.notifications) setLast(into.notifications, key, json);
  return into.notifications.size <= MAX_PENDING_NOTIFICATIONS;
}

/**
 * One push of a scope, shared by its connections: every text is built once, on first use, and the
 * same string goes to every connection (so the WebSocket sink encodes it once, too).
 */
export class ScopeBatch extends RecordCache {
  private block: GpsBlockMessage | null | undefined;

  constructor(
    /** The texts of this push, keyed; never changed after the push was made. */
    readonly pending: Pending,
    /** Online users of the scope at this push. */
    readonly count: number,
    /** When the live state took the oldest change of this push (the clock's time). */
    readonly since: number,
  ) {
    super();
  }

  get hasOnline(): boolean {
    return this.pending.online.size > 0;
  }

  gps(): string | null {
    const { fixes } = this.pending;
    return fixes.size === 0 ? null : this.memo('GPS', () => pushMessage('GPS', fixList(fixes.values())));
  }

  /** The same changes for MessagePack connections: one position block, and the slow fields that changed. */
  gpsBlock(): GpsBlockMessage | null {
    if (this.block === undefined) {
      const { fixes, slow } = this.pending;
      this.block = fixes.size === 0 ? null : GpsBlockMessage.of(fixes.values(), slow.values(), false);
    }
    return this.block;
  }

  onlineUsers(): string | null {
    return this.list('OnlineUser', this.pending.online);
  }

  notify(): string | null {
    return this.list('Notify', this.pending.notifications);
  }

  heartRate(): string | null {
    return this.list('HeartRate', this.pending.heartRates);
  }

  video(): string | null {
    return this.list('Video', this.pending.videos);
  }

  incident(): string | null {
    return this.list('Incident', this.pending.incidents);
  }

  numOnline(): string {
    return this.memo('NumOnlineUser', () => pushMessage('NumOnlineUser', String(this.count)));
  }

  /** `OnlineChange` relative to what one connection was told last. */
  onlineChange(delta: number): string {
    return this.memo(`OnlineChange:${delta}`, () =>
      pushMessage(
        'OnlineChange',
        `{"count":${this.count},"delta":${delta},"users":${this.memo('onlineList', () => jsonList(this.pending.online.values()))}}`,
      ),
    );
  }

  private list(type: string, items: ReadonlyMap<unknown, string>): string | null {
    return items.size === 0 ? null : this.memo(type, () => pushMessage(type, jsonList(items.values())));
  }
}

/** A connection's side of a scope feed. */
export interface ScopeMember {
  push(batch: ScopeBatch): void;
  /** Its pushes fell behind: a fresh snapshot replaces them. */
  resync(): void;
}

/**
 * The live changes of one tenancy scope (a set of enterprises), gathered once for every connection
 * of that scope and pushed at most once per push interval. Connections of one scope see the same
 * changes, so gathering and encoding them once per scope, not once per connection, is what keeps
 * the fan-out cheap (docs/benchmarks.md, "Broadcast").
 */
export class ScopeFeed {
  readonly members = new Set<ScopeMember>();
  private pending = emptyPending();
  /** When the oldest change of `pending` was taken (the clock's time). */
  private pendingSince = 0;
  private timer: ClockTimer | null = null;
  private lastPushAt = 0;
  private cachedSnapshot: ScopeSnapshot | null = null;
  /**
   * The online users' packed block and the LiveState online revision it was packed at: snapshots
   * last until the next change (50,000 moves a second), the online users mostly much longer.
   */
  private packedOnline: { revision: number; block: ValueMessage<OnlineBlockData> } | null = null;
  private readonly slowFields = new SlowFieldWatch();

  constructor(
    readonly enterpriseIds: readonly number[],
    private readonly live: LiveState,
    private readonly pushIntervalMs: number,
    /** The time of the push interval (AppDeps.clock). */
    private readonly clock: Clock,
  ) {}

  /** The scope's snapshot now; connections that (re)subscribe before the next change share it. */
  snapshot(): ScopeSnapshot {
    if (!this.cachedSnapshot) {
      const revision = this.live.onlineRevision;
      const packed = this.packedOnline?.revision === revision ? this.packedOnline.block : null;
      this.cachedSnapshot = new ScopeSnapshot(this.live.snapshot(this.enterpriseIds), packed, (block) => {
        this.packedOnline = { revision, block };
      });
      this.slowFields.seed(this.cachedSnapshot.fixes);
    }
    return this.cachedSnapshot;
  }

  apply(change: LiveChange): void {
    this.cachedSnapshot = null;
    // The first change since the last push (a timer is set from the first to the push).
    if (!this.timer) this.pendingSince = this.clock.now();
    const pending = this.pending;
    switch (change.kind) {
      case 'gps':
        pending.fixes.set(change.key, change.fix);
        if (this.slowFields.changed(change.fix)) pending.slow.set(change.key, change.fix);
        break;
      case 'heartRate':
        pending.heartRates.set(change.key, change.json);
        break;
      case 'online':
        pending.online.set(change.key, change.json);
        break;
      case 'video':
        pending.videos.set(change.key, change.json);
        break;
      case 'incident':
        pending.incidents.set(change.key, change.json);
        break;
      case 'notification':
        setLast(pending.notifications, change.key, change.json);
        if (pending.notifications.size > MAX_PENDING_NOTIFICATIONS) {
          this.pending = emptyPending();
          this.pendingSince = this.clock.now();
          for (const member of this.members) member.resync();
          return;
        }
        break;
    }
    this.schedule();
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = null;
    this.members.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastPushAt + this.pushIntervalMs - this.clock.now());
    this.timer = this.clock.timeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = null;
    this.lastPushAt = this.clock.now();
    const batch = new ScopeBatch(this.pending, this.live.onlineCount(this.enterpriseIds), this.pendingSince);
    this.pending = emptyPending();
    for (const member of this.members) member.push(batch);
  }
}
