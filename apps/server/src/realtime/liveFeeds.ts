import { HubMethods, HubTargets, type HubFeed, type HubSubscribeResult } from '@intercom/contract';
import type { HubConnection } from './hubConnection.js';
import type { ServerStream } from './serverStream.js';
import type { ScopeBatch, ScopeFeed, ScopeMember, ScopeSnapshot } from './scopeFeed.js';

/** A subscription delivers by `pushMsg`/`pushNotify` invocations, or as items of a client's stream. */
interface Subscription {
  stream: ServerStream | null;
}

const TARGET: Record<HubFeed, string> = {
  [HubMethods.FuncGPS]: HubTargets.pushMsg,
  [HubMethods.FuncNotify]: HubTargets.pushNotify,
};

/**
 * The live subscriptions of one hub connection. A new subscription gets a snapshot of its scope;
 * after that, the connection takes its share of every push of its scope's ScopeFeed (the changes
 * gathered once for the scope, at most once per push interval). When the connection's queue
 * overflows, everything queued is dropped and a fresh snapshot goes instead.
 */
export class LiveFeeds implements ScopeMember {
  private readonly subscriptions = new Map<HubFeed, Subscription>();
  private readonly enterpriseIds: readonly number[];
  /** The online count each feed last told its client. */
  private readonly countSent: Record<HubFeed, number> = { FuncGPS: -1, FuncNotify: -1 };

  constructor(
    private readonly connection: HubConnection,
    /** The feed of this connection's scope (made anew when the last connection of a scope left). */
    private readonly scopeFeed: () => ScopeFeed,
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

  dispose(): void {
    this.subscriptions.clear();
  }

  private end(feed: HubFeed): void {
    const subscription = this.subscriptions.get(feed);
    if (!subscription) return;
    this.subscriptions.delete(feed);
    subscription.stream?.complete();
  }

  /** This connection's part of a push of its scope. */
  push(batch: ScopeBatch): void {
    if (this.connection.state !== 'open') return;
    const count = batch.count;
    const out: [HubFeed, string][] = [];
    const add = (feed: HubFeed, argument: string | null) => {
      if (argument !== null) out.push([feed, argument]);
    };
    if (this.subscriptions.has(HubMethods.FuncGPS)) {
      const feed = HubMethods.FuncGPS;
      add(feed, batch.gps());
      add(feed, batch.onlineUsers());
      if (count !== this.countSent.FuncGPS) add(feed, batch.numOnline());
      add(feed, batch.notify());
      add(feed, batch.heartRate());
      add(feed, batch.video());
      this.countSent.FuncGPS = count;
    }
    if (this.subscriptions.has(HubMethods.FuncNotify)) {
      const feed = HubMethods.FuncNotify;
      if (batch.hasOnline || count !== this.countSent.FuncNotify) {
        add(feed, batch.onlineChange(count - this.countSent.FuncNotify));
      }
      add(feed, batch.notify());
      this.countSent.FuncNotify = count;
    }
    // A refused send means the queue overflowed and a snapshot has replaced everything.
    for (const [feed, argument] of out) if (!this.deliver(feed, argument, false, batch)) return;
  }

  /** Everything queued is stale now: one fresh snapshot per feed replaces it. */
  resync(): void {
    this.sendSnapshot([...this.subscriptions.keys()]);
  }

  private sendSnapshot(feeds: readonly HubFeed[]): void {
    if (feeds.length === 0) return;
    const snapshot = this.scopeFeed().snapshot();
    const out: [HubFeed, string][] = [];
    for (const feed of feeds) {
      if (feed === HubMethods.FuncGPS) {
        out.push(
          [feed, snapshot.gpsArray],
          [feed, snapshot.numOnline],
          [feed, snapshot.onlineUsers],
          [feed, snapshot.notifys],
          [feed, snapshot.heartRate],
          [feed, snapshot.videos],
        );
      } else {
        out.push([feed, snapshot.online], [feed, snapshot.notifys]);
      }
      this.countSent[feed] = snapshot.count;
    }
    this.connection.snapshotChars = out.reduce((sum, [, argument]) => sum + argument.length, 0);
    for (const [feed, argument] of out) this.deliver(feed, argument, true, snapshot);
  }

  private deliver(feed: HubFeed, argument: string, force: boolean, texts: ScopeBatch | ScopeSnapshot): boolean {
    const subscription = this.subscriptions.get(feed);
    if (!subscription) return true;
    if (subscription.stream) return subscription.stream.next(argument, { droppable: true, force });
    return this.connection.send(texts.record(TARGET[feed], argument), { droppable: true, force });
  }
}
