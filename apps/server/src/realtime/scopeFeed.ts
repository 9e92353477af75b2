import { invocationRecord } from './hubProtocol.js';
import type { LiveChange, LiveSnapshot, LiveState } from './liveState.js';

/** Alarms waiting for the next push beyond this count are replaced by a fresh snapshot. */
const MAX_PENDING_NOTIFICATIONS = 1000;

export function pushMessage(type: string, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"data":${dataJson}}`;
}

export function jsonList(jsons: Iterable<string>): string {
  return `[${[...jsons].join(',')}]`;
}

/** Invocation records built once per (target, argument) and shared by the scope's connections. */
class RecordCache {
  private readonly records = new Map<string, Map<string, string>>();

  record(target: string, argument: string): string {
    let byArgument = this.records.get(target);
    if (!byArgument) {
      byArgument = new Map();
      this.records.set(target, byArgument);
    }
    let record = byArgument.get(argument);
    if (record === undefined) {
      record = invocationRecord(target, argument);
      byArgument.set(argument, record);
    }
    return record;
  }
}

/** The texts of a scope's snapshot, built once until the scope changes. */
export class ScopeSnapshot extends RecordCache {
  readonly count: number;
  readonly gpsArray: string;
  readonly numOnline: string;
  readonly onlineUsers: string;
  readonly notifys: string;
  readonly heartRate: string;
  readonly videos: string;
  readonly online: string;

  constructor(snapshot: LiveSnapshot) {
    super();
    this.count = snapshot.online.length;
    const online = jsonList(snapshot.online);
    this.gpsArray = pushMessage('GPSArray', jsonList(snapshot.gps));
    this.numOnline = pushMessage('NumOnlineUser', String(this.count));
    this.onlineUsers = pushMessage('OnlineUser', online);
    this.notifys = pushMessage('Notifys', jsonList(snapshot.notifications));
    this.heartRate = pushMessage('HeartRate', jsonList(snapshot.heartRates));
    this.videos = pushMessage('Videos', jsonList(snapshot.videos));
    this.online = pushMessage('Online', `{"count":${this.count},"users":${online}}`);
  }
}

/** What a scope gathered since its last push: the latest per user, alarm or phone. */
interface Pending {
  gps: string[];
  online: string[];
  notifications: string[];
  heartRates: string[];
  videos: string[];
}

/**
 * One push of a scope, shared by its connections: every text is built once, on first use, and the
 * same string goes to every connection (so the WebSocket sink encodes it once, too).
 */
export class ScopeBatch extends RecordCache {
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly pending: Pending,
    /** Online users of the scope at this push. */
    readonly count: number,
  ) {
    super();
  }

  get hasOnline(): boolean {
    return this.pending.online.length > 0;
  }

  gps(): string | null {
    return this.list('GPS', this.pending.gps);
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

  numOnline(): string {
    return this.memo('NumOnlineUser', () => pushMessage('NumOnlineUser', String(this.count)));
  }

  /** `OnlineChange` relative to what one connection was told last. */
  onlineChange(delta: number): string {
    return this.memo(`OnlineChange:${delta}`, () =>
      pushMessage(
        'OnlineChange',
        `{"count":${this.count},"delta":${delta},"users":${this.memo('onlineList', () => jsonList(this.pending.online))}}`,
      ),
    );
  }

  private list(type: string, items: string[]): string | null {
    return items.length === 0 ? null : this.memo(type, () => pushMessage(type, jsonList(items)));
  }

  private memo(key: string, make: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = make();
      this.texts.set(key, text);
    }
    return text;
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
  private gps = new Map<number, string>();
  private online = new Map<number, string>();
  private notifications = new Map<number, string>();
  private heartRates = new Map<string, string>();
  private videos = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  private lastPushAt = 0;
  private cachedSnapshot: ScopeSnapshot | null = null;

  constructor(
    readonly enterpriseIds: readonly number[],
    private readonly live: LiveState,
    private readonly pushIntervalMs: number,
  ) {}

  /** The scope's snapshot now; connections that (re)subscribe before the next change share it. */
  snapshot(): ScopeSnapshot {
    this.cachedSnapshot ??= new ScopeSnapshot(this.live.snapshot(this.enterpriseIds));
    return this.cachedSnapshot;
  }

  apply(change: LiveChange): void {
    this.cachedSnapshot = null;
    switch (change.kind) {
      case 'gps':
        this.gps.set(change.key, change.json);
        break;
      case 'heartRate':
        this.heartRates.set(change.key, change.json);
        break;
      case 'online':
        this.online.set(change.key, change.json);
        break;
      case 'video':
        this.videos.set(change.key, change.json);
        break;
      case 'notification':
        this.notifications.delete(change.key);
        this.notifications.set(change.key, change.json);
        if (this.notifications.size > MAX_PENDING_NOTIFICATIONS) {
          this.takePending();
          for (const member of this.members) member.resync();
          return;
        }
        break;
    }
    this.schedule();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.members.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastPushAt + this.pushIntervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  private takePending(): Pending {
    const pending = {
      gps: [...this.gps.values()],
      online: [...this.online.values()],
      notifications: [...this.notifications.values()],
      heartRates: [...this.heartRates.values()],
      videos: [...this.videos.values()],
    };
    this.gps = new Map();
    this.online = new Map();
    this.notifications = new Map();
    this.heartRates = new Map();
    this.videos = new Map();
    return pending;
  }

  private flush(): void {
    this.timer = null;
    this.lastPushAt = Date.now();
    const batch = new ScopeBatch(this.takePending(), this.live.onlineCount(this.enterpriseIds));
    for (const member of this.members) member.push(batch);
  }
}
