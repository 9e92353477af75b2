import { HubMethods, HubTargets, type HubFeed, type HubSubscribeResult } from '@intercom/contract';
import type { HubConnection } from './hubConnection.js';
import type { ServerStream } from './serverStream.js';
import { invocationRecord } from './hubProtocol.js';
import type { LiveChange, LiveState } from './liveState.js';

/** A subscription delivers by `pushMsg`/`pushNotify` invocations, or as items of a client's stream. */
interface Subscription {
  stream: ServerStream | null;
}

/** Alarms waiting for the next push beyond this count are replaced by a fresh snapshot. */
const MAX_PENDING_NOTIFICATIONS = 1000;

const TARGET: Record<HubFeed, string> = {
  [HubMethods.FuncGPS]: HubTargets.pushMsg,
  [HubMethods.FuncNotify]: HubTargets.pushNotify,
};

function message(type: string, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"data":${dataJson}}`;
}

function list(jsons: Iterable<string>): string {
  return `[${[...jsons].join(',')}]`;
}

/**
 * The live subscriptions of one hub connection. A new subscription gets a snapshot of its scope;
 * after that, changes are gathered (the latest per user, alarm or phone wins) and pushed at most
 * once per push interval. When the connection's queue overflows, everything gathered and queued is
 * dropped and a fresh snapshot goes instead.
 */
export class LiveFeeds {
  private readonly subscriptions = new Map<HubFeed, Subscription>();
  private readonly enterpriseIds: readonly number[];
  private gps = new Map<number, string>();
  private online = new Map<number, string>();
  private notifications = new Map<number, string>();
  private heartRates = new Map<string, string>();
  /** The online count each feed last told its client. */
  private readonly countSent: Record<HubFeed, number> = { FuncGPS: -1, FuncNotify: -1 };
  private timer: NodeJS.Timeout | null = null;
  private lastPushAt = 0;

  constructor(
    private readonly connection: HubConnection,
    private readonly live: LiveState,
    private readonly pushIntervalMs: number,
    private readonly onIdle: () => void,
  ) {
    this.enterpriseIds = connection.principal.scope.enterpriseIds;
    connection.onOverflow(() => this.resync());
  }

  get scope(): readonly number[] {
    return this.enterpriseIds;
  }

  get subscribed(): boolean {
    return this.subscriptions.size > 0;
  }

  /** Starts (or restarts) a feed with its snapshot; a stream it replaces completes. */
  subscribe(feed: HubFeed, stream: ServerStream | null): HubSubscribeResult {
    this.end(feed);
    this.subscriptions.set(feed, { stream });
    stream?.onCancel(() => {
      if (this.subscriptions.get(feed)?.stream !== stream) return;
      this.subscriptions.delete(feed);
      if (!this.subscribed) this.onIdle();
    });
    this.sendSnapshot([feed]);
    return { feed, enterprises: [...this.enterpriseIds] };
  }

  unsubscribe(feed: HubFeed): boolean {
    const had = this.subscriptions.has(feed);
    this.end(feed);
    if (!this.subscribed) this.onIdle();
    return had;
  }

  apply(change: LiveChange): void {
    const gpsFeed = this.subscriptions.has(HubMethods.FuncGPS);
    switch (change.kind) {
      case 'gps':
        if (!gpsFeed) return;
        this.gps.set(change.key, change.json);
        break;
      case 'heartRate':
        if (!gpsFeed) return;
        this.heartRates.set(change.key, change.json);
        break;
      case 'online':
        this.online.set(change.key, change.json);
        break;
      case 'notification':
        this.notifications.delete(change.key);
        this.notifications.set(change.key, change.json);
        if (this.notifications.size > MAX_PENDING_NOTIFICATIONS) {
          this.resync();
          return;
        }
        break;
    }
    this.schedule();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.subscriptions.clear();
  }

  private end(feed: HubFeed): void {
    const subscription = this.subscriptions.get(feed);
    if (!subscription) return;
    this.subscriptions.delete(feed);
    subscription.stream?.complete();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastPushAt + this.pushIntervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  private takePending() {
    const pending = {
      gps: [...this.gps.values()],
      online: [...this.online.values()],
      notifications: [...this.notifications.values()],
      heartRates: [...this.heartRates.values()],
    };
    this.gps = new Map();
    this.online = new Map();
    this.notifications = new Map();
    this.heartRates = new Map();
    return pending;
  }

  private flush(): void {
    this.timer = null;
    if (this.connection.state !== 'open') return;
    this.lastPushAt = Date.now();
    const pending = this.takePending();
    const count = this.live.onlineCount(this.enterpriseIds);
    const out: [HubFeed, string][] = [];
    if (this.subscriptions.has(HubMethods.FuncGPS)) {
      const feed = HubMethods.FuncGPS;
      if (pending.gps.length > 0) out.push([feed, message('GPS', list(pending.gps))]);
      if (pending.online.length > 0) out.push([feed, message('OnlineUser', list(pending.online))]);
      if (count !== this.countSent.FuncGPS) out.push([feed, message('NumOnlineUser', String(count))]);
      if (pending.notifications.length > 0) out.push([feed, message('Notify', list(pending.notifications))]);
      if (pending.heartRates.length > 0) out.push([feed, message('HeartRate', list(pending.heartRates))]);
      this.countSent.FuncGPS = count;
    }
    if (this.subscriptions.has(HubMethods.FuncNotify)) {
      const feed = HubMethods.FuncNotify;
      if (pending.online.length > 0 || count !== this.countSent.FuncNotify) {
        const delta = count - this.countSent.FuncNotify;
        out.push([
          feed,
          message('OnlineChange', `{"count":${count},"delta":${delta},"users":${list(pending.online)}}`),
        ]);
      }
      if (pending.notifications.length > 0) out.push([feed, message('Notify', list(pending.notifications))]);
      this.countSent.FuncNotify = count;
    }
    // A refused send means the queue overflowed and a snapshot has replaced everything.
    for (const [feed, argument] of out) if (!this.deliver(feed, argument, false)) return;
  }

  /** Everything gathered or queued is stale now: one fresh snapshot per feed replaces it. */
  private resync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.takePending();
    this.sendSnapshot([...this.subscriptions.keys()]);
  }

  private sendSnapshot(feeds: readonly HubFeed[]): void {
    if (feeds.length === 0) return;
    const snapshot = this.live.snapshot(this.enterpriseIds);
    const count = snapshot.online.length;
    const out: [HubFeed, string][] = [];
    for (const feed of feeds) {
      if (feed === HubMethods.FuncGPS) {
        out.push([feed, message('GPSArray', list(snapshot.gps))]);
        out.push([feed, message('NumOnlineUser', String(count))]);
        out.push([feed, message('OnlineUser', list(snapshot.online))]);
        out.push([feed, message('Notifys', list(snapshot.notifications))]);
        out.push([feed, message('HeartRate', list(snapshot.heartRates))]);
      } else {
        out.push([feed, message('Online', `{"count":${count},"users":${list(snapshot.online)}}`)]);
        out.push([feed, message('Notifys', list(snapshot.notifications))]);
      }
      this.countSent[feed] = count;
    }
    this.connection.snapshotChars = out.reduce((sum, [, argument]) => sum + argument.length, 0);
    this.lastPushAt = Date.now();
    for (const [feed, argument] of out) this.deliver(feed, argument, true);
  }

  private deliver(feed: HubFeed, argument: string, force: boolean): boolean {
    const subscription = this.subscriptions.get(feed);
    if (!subscription) return true;
    if (subscription.stream) return subscription.stream.next(argument, { droppable: true, force });
    return this.connection.send(invocationRecord(TARGET[feed], argument), { droppable: true, force });
  }
}
