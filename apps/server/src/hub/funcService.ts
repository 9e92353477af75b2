import { HubMethods, funcGpsOptionsSchema, type HubFeed, type HubSubscribeResult } from '@intercom/contract';
import type { Clock } from '../core/clock.js';
import type { HubConnection } from './hubConnection.js';
import type { ServerStream } from './serverStream.js';
import { HubError, type HubMethod, type HubServer } from './hubServer.js';
import { LiveFeeds } from './liveFeeds.js';
import type { LiveState } from '../live/liveState.js';
import { ScopeFeed } from './scopeFeed.js';

const FEEDS: readonly HubFeed[] = [HubMethods.FuncGPS, HubMethods.FuncNotify];

function feedOf(value: unknown): HubFeed {
  const feed = FEEDS.find((name) => typeof value === 'string' && name.toLowerCase() === value.toLowerCase());
  if (!feed) throw new HubError(`Unknown feed '${String(value)}'; expected FuncGPS or FuncNotify.`);
  return feed;
}

/**
 * A feed's options, an object as its first argument: `{ packed: true }` asks for packed snapshots
 * (MessagePack connections; docs/realtime.md). An object of other keys or values is refused before
 * the subscription; arguments that are no object are ignored, as they always were.
 */
function packedOf(feed: HubFeed, args: readonly unknown[]): boolean {
  const first = args[0];
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return false;
  const options = funcGpsOptionsSchema.safeParse(first);
  if (!options.success) throw new HubError(`${feed} takes its options as { packed: boolean }.`);
  return options.data.packed === true;
}

/**
 * The methods of `/FuncService` (DESIGN.md section 6). `FuncGPS` and `FuncNotify` subscribe the
 * caller to its tenancy scope, whether invoked, sent or streamed; live changes reach only the
 * connections whose scope holds the change's enterprise.
 */
export class FuncService {
  private readonly feedsOf = new Map<HubConnection, LiveFeeds>();
  /** One feed per distinct scope (its enterprise ids, sorted, joined). */
  private readonly scopes = new Map<string, ScopeFeed>();
  private readonly scopeOf = new Map<LiveFeeds, ScopeFeed>();
  private readonly byEnterprise = new Map<number, Set<ScopeFeed>>();
  private readonly stopListening: () => void;
  private readonly pushInterval: number;

  constructor(
    hub: HubServer,
    private readonly live: LiveState,
    /** The time of the scopes' push interval (AppDeps.clock). */
    private readonly clock: Clock,
    /** Told the age of the oldest change of each push handed to a connection, in seconds (a metric). */
    private readonly onPushed?: (ageSeconds: number) => void,
  ) {
    for (const feed of FEEDS) hub.addMethod(feed, this.feedMethod(feed));
    hub.addMethod(HubMethods.Unsubscribe, {
      invoke: ({ connection }, args) => {
        const feed = feedOf(args[0]);
        return this.feedsOf.get(connection)?.unsubscribe(feed) ?? false;
      },
    });
    this.pushInterval = hub.options.pushIntervalMs;
    this.stopListening = live.onChange((change) => {
      const listeners = this.byEnterprise.get(change.E_ID);
      if (listeners) for (const scope of listeners) scope.apply(change);
    });
  }

  /** Connections with at least one live subscription. */
  get subscribers(): number {
    let count = 0;
    for (const feeds of this.feedsOf.values()) if (feeds.subscribed) count += 1;
    return count;
  }

  close(): void {
    this.stopListening();
    for (const feeds of this.feedsOf.values()) feeds.dispose();
    for (const scope of this.scopes.values()) scope.dispose();
    this.feedsOf.clear();
    this.scopes.clear();
    this.scopeOf.clear();
    this.byEnterprise.clear();
  }

  private feedMethod(feed: HubFeed): HubMethod {
    return {
      invoke: ({ connection }, args) => this.subscribe(connection, feed, null, packedOf(feed, args)),
      stream: ({ connection }, args, stream) => {
        this.subscribe(connection, feed, stream, packedOf(feed, args));
      },
    };
  }

  private subscribe(
    connection: HubConnection,
    feed: HubFeed,
    stream: ServerStream | null,
    packed: boolean,
  ): HubSubscribeResult {
    const feeds = this.feedsFor(connection);
    const result = feeds.subscribe(feed, stream, packed);
    if (!this.scopeOf.has(feeds)) {
      const scope = this.scopeFor(feeds.scope);
      scope.members.add(feeds);
      this.scopeOf.set(feeds, scope);
    }
    return result;
  }

  private feedsFor(connection: HubConnection): LiveFeeds {
    const existing = this.feedsOf.get(connection);
    if (existing) return existing;
    const feeds: LiveFeeds = new LiveFeeds(
      connection,
      () => this.scopeFor(connection.principal.scope.enterpriseIds),
      () => this.unindex(feeds),
      this.clock,
      this.onPushed,
    );
    this.feedsOf.set(connection, feeds);
    connection.onDispose(() => {
      feeds.dispose();
      this.unindex(feeds);
      this.feedsOf.delete(connection);
    });
    return feeds;
  }

  private scopeFor(enterpriseIds: readonly number[]): ScopeFeed {
    const key = [...enterpriseIds].sort((x, y) => x - y).join(',');
    let scope = this.scopes.get(key);
    if (scope) return scope;
    scope = new ScopeFeed(enterpriseIds, this.live, this.pushInterval, this.clock);
    this.scopes.set(key, scope);
    for (const E_ID of enterpriseIds) {
      let listeners = this.byEnterprise.get(E_ID);
      if (!listeners) {
        listeners = new Set();
        this.byEnterprise.set(E_ID, listeners);
      }
      listeners.add(scope);
    }
    return scope;
  }

  /** A connection left its scope's feed; the last one out removes the feed. */
  private unindex(feeds: LiveFeeds): void {
    const scope = this.scopeOf.get(feeds);
    if (!scope) return;
    this.scopeOf.delete(feeds);
    scope.members.delete(feeds);
    if (scope.members.size > 0) return;
    scope.dispose();
    for (const [key, value] of this.scopes) if (value === scope) this.scopes.delete(key);
    for (const E_ID of scope.enterpriseIds) {
      const listeners = this.byEnterprise.get(E_ID);
      listeners?.delete(scope);
      if (listeners?.size === 0) this.byEnterprise.delete(E_ID);
    }
  }
}
