import { HubMethods, HubTargets, type HubFeed, type HubSubscribeResult } from '@intercom/contract';
import type { Clock } from '../core/clock.js';
import type { HubConnection } from './hubConnection.js';
import type { ServerStream } from './serverStream.js';
import type { GpsBlockMessage } from './gpsBlocks.js';
import type { ValueMessage } from './valueMessage.js';
import {
  ScopeBatch,
  emptyPending,
  mergePending,
  type Pending,
  type ScopeFeed,
  type ScopeMember,
  type ScopeSnapshot,
} from './scopeFeed.js';

/** A message's argument: JSON text, or (MessagePack connections) a value: a GPS block, an OnlineBlock. */
type Argument = string | ValueMessage;

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
 * gathered once for the scope, at most once per push interval).
 *
 * A connection that has not taken the last push yet (a slow client, a long poll not yet back) is
 * not queued more pushes: their changes are held here, merged by key (conflation, as market-data
 * feeds do), and go as one push when the transport is ready again. What is held is bounded by the
 * scope's size (one text per user, alarm, phone, video source), so a client that falls behind gets
 * fewer, larger pushes of the latest values, never a backlog of stale positions nor, at 50,000
 * users, fresh 37 MB snapshots. A snapshot replaces what is held only when more alarms are held
 * than a push may carry.
 */
export class LiveFeeds implements ScopeMember {
  private readonly subscriptions = new Map<HubFeed, Subscription>();
  private readonly enterpriseIds: readonly number[];
  /** The online count each feed last told its client. */
  private readonly countSent: Record<HubFeed, number> = { FuncGPS: -1, FuncNotify: -1 };
  /** Changes of pushes the connection was not ready for, merged by key; sent when it is. */
  private held: Pending | null = null;
  /** The online count at the newest held push. */
  private heldCount = 0;
  /** When the oldest held change was taken (the clock's time). */
  private heldSince = 0;
  /** The feeds subscribed with `{ packed: true }`: their snapshots' big parts go packed (MessagePack connections). */
  private readonly packedFeeds = new Set<HubFeed>();

  constructor(
    private readonly connection: HubConnection,
    /** The feed of this connection's scope (made anew when the last connection of a scope left). */
    private readonly scopeFeed: () => ScopeFeed,
    private readonly onIdle: () => void,
    /** The time a push's age is read from (AppDeps.clock, as the scope's push interval). */
    private readonly clock: Clock,
    /** Told, per push handed to the connection, the age of its oldest change in seconds. */
    private readonly onPushed: (ageSeconds: number) => void = () => undefined,
  ) {
    this.enterpriseIds = connection.principal.scope.enterpriseIds;
    connection.onReadyForPushes(() => this.sendHeld());
  }

  get scope(): readonly number[] {
    return this.enterpriseIds;
  }

  /** A MessagePack connection: positions go as binary blocks (gpsBlocks.ts). */
  private get binary(): boolean {
    return this.connection.wire.protocol === 'messagepack';
  }

  get subscribed(): boolean {
    return this.subscriptions.size > 0;
  }

  /**
   * Starts (or restarts) a feed with its snapshot; a stream it replaces completes. `packed`: on a
   * MessagePack connection the feed's snapshot sends its full position block (gpsBlocks.ts) and its
   * online users (an OnlineBlock) packed.
   */
  subscribe(feed: HubFeed, stream: ServerStream | null, packed = false): HubSubscribeResult {
    if (packed) this.packedFeeds.add(feed);
    else this.packedFeeds.delete(feed);
    // Held changes are older than the snapshot that follows: they go first, so none undoes it.
    this.sendHeld();
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
    this.held = null;
  }

  private end(feed: HubFeed): void {
    const subscription = this.subscriptions.get(feed);
    if (!subscription) return;
    this.subscriptions.delete(feed);
    subscription.stream?.complete();
  }

  /** This connection's part of a push of its scope: sent now, or held until the connection is ready. */
  push(batch: ScopeBatch): void {
    if (this.connection.state !== 'open' || !this.subscribed) return;
    if (this.held || !this.connection.readyForPushes) {
      this.hold(batch);
      if (this.connection.readyForPushes) this.sendHeld();
      return;
    }
    this.send(batch);
  }

  /** What is held is dropped: one fresh snapshot per feed replaces it. */
  resync(): void {
    this.held = null;
    this.sendSnapshot([...this.subscriptions.keys()]);
  }

  private hold(batch: ScopeBatch): void {
    if (!this.held) {
      this.held = emptyPending();
      this.heldSince = batch.since;
    }
    this.heldCount = batch.count;
    if (!mergePending(this.held, batch.pending)) this.resync();
  }

  /** The held changes as one push of this connection's own. */
  private sendHeld(): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.send(new ScopeBatch(held, this.heldCount, this.heldSince));
  }

  /**
   * Queues a push: pushes go only to a connection that holds none (or, held changes, right before a
   * snapshot), so a push is never queued behind another.
   */
  private send(batch: ScopeBatch): void {
    const count = batch.count;
    const out: [HubFeed, Argument][] = [];
    const add = (feed: HubFeed, argument: Argument | null) => {
      if (argument !== null) out.push([feed, argument]);
    };
    if (this.subscriptions.has(HubMethods.FuncGPS)) {
      const feed = HubMethods.FuncGPS;
      add(feed, this.binary ? batch.gpsBlock() : batch.gps());
      add(feed, batch.onlineUsers());
      if (count !== this.countSent.FuncGPS) add(feed, batch.numOnline());
      add(feed, batch.notify());
      add(feed, batch.heartRate());
      add(feed, batch.video());
      add(feed, batch.incident());
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
    for (const [feed, argument] of out) this.deliver(feed, argument, batch);
    // The clock is wall time in production: a step back (NTP) must not make an age below zero.
    if (out.length > 0) this.onPushed(Math.max(0, this.clock.now() - batch.since) / 1000);
  }

  private sendSnapshot(feeds: readonly HubFeed[]): void {
    if (feeds.length === 0) return;
    const snapshot = this.scopeFeed().snapshot();
    const out: [HubFeed, Argument][] = [];
    for (const feed of feeds) {
      const packed = this.binary && this.packedFeeds.has(feed);
      if (feed === HubMethods.FuncGPS) {
        out.push(
          [feed, this.binary ? this.snapshotBlock(snapshot, packed) : snapshot.gpsArray],
          [feed, snapshot.numOnline],
          [feed, packed ? snapshot.onlineBlock : snapshot.onlineUsers],
          [feed, snapshot.notifys],
          [feed, snapshot.heartRate],
          [feed, snapshot.videos],
        );
      } else {
        out.push([feed, packed ? snapshot.onlineBlock : snapshot.online], [feed, snapshot.notifys]);
      }
      this.countSent[feed] = snapshot.count;
    }
    this.connection.snapshotChars = out.reduce(
      (sum, [, argument]) => sum + (typeof argument === 'string' ? argument.length : argument.size),
      0,
    );
    for (const [feed, argument] of out) this.deliver(feed, argument, snapshot);
  }

  private snapshotBlock(snapshot: ScopeSnapshot, packed: boolean): GpsBlockMessage {
    return packed ? snapshot.gpsBlock.packed() : snapshot.gpsBlock;
  }

  /** Queues one message (`send` says why what is queued stays bounded). */
  private deliver(feed: HubFeed, argument: Argument, texts: ScopeBatch | ScopeSnapshot): void {
    const subscription = this.subscriptions.get(feed);
    if (!subscription) return;
    const options = { droppable: true };
    if (typeof argument !== 'string') {
      if (subscription.stream) subscription.stream.nextValue(argument.value, options);
      else this.connection.send(argument.record(TARGET[feed], this.connection.wire), options);
      return;
    }
    if (subscription.stream) subscription.stream.next(argument, options);
    else this.connection.send(texts.record(TARGET[feed], argument, this.connection.wire), options);
  }
}
