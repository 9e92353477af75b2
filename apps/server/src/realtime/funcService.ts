import { HubMethods, type HubFeed, type HubSubscribeResult } from '@intercom/contract';
import type { HubConnection } from './hubConnection.js';
import type { ServerStream } from './serverStream.js';
import { HubError, type HubMethod, type HubServer } from './hubServer.js';
import { LiveFeeds } from './liveFeeds.js';
import type { LiveState } from './liveState.js';

const FEEDS: readonly HubFeed[] = [HubMethods.FuncGPS, HubMethods.FuncNotify];

function feedOf(value: unknown): HubFeed {
  const feed = FEEDS.find((name) => typeof value === 'string' && name.toLowerCase() === value.toLowerCase());
  if (!feed) throw new HubError(`Unknown feed '${String(value)}'; expected FuncGPS or FuncNotify.`);
  return feed;
}

/**
 * The methods of `/FuncService` (DESIGN.md section 6). `FuncGPS` and `FuncNotify` subscribe the
 * caller to its tenancy scope, whether invoked, sent or streamed; live changes reach only the
 * connections whose scope holds the change's enterprise.
 */
export class FuncService {
  private readonly feedsOf = new Map<HubConnection, LiveFeeds>();
  private readonly byEnterprise = new Map<number, Set<LiveFeeds>>();
  private readonly stopListening: () => void;
  private readonly pushInterval: number;

  constructor(
    hub: HubServer,
    private readonly live: LiveState,
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
      if (listeners) for (const feeds of listeners) feeds.apply(change);
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
    this.feedsOf.clear();
    this.byEnterprise.clear();
  }

  private feedMethod(feed: HubFeed): HubMethod {
    return {
      invoke: ({ connection }) => this.subscribe(connection, feed, null),
      stream: ({ connection }, _args, stream) => {
        this.subscribe(connection, feed, stream);
      },
    };
  }

  private subscribe(connection: HubConnection, feed: HubFeed, stream: ServerStream | null): HubSubscribeResult {
    const feeds = this.feedsFor(connection);
    const result = feeds.subscribe(feed, stream);
    for (const E_ID of feeds.scope) {
      let listeners = this.byEnterprise.get(E_ID);
      if (!listeners) {
        listeners = new Set();
        this.byEnterprise.set(E_ID, listeners);
      }
      listeners.add(feeds);
    }
    return result;
  }

  private feedsFor(connection: HubConnection): LiveFeeds {
    const existing = this.feedsOf.get(connection);
    if (existing) return existing;
    const feeds: LiveFeeds = new LiveFeeds(connection, this.live, this.pushInterval, () => this.unindex(feeds));
    this.feedsOf.set(connection, feeds);
    connection.onDispose(() => {
      feeds.dispose();
      this.unindex(feeds);
      this.feedsOf.delete(connection);
    });
    return feeds;
  }

  private unindex(feeds: LiveFeeds): void {
    for (const E_ID of feeds.scope) {
      const listeners = this.byEnterprise.get(E_ID);
      listeners?.delete(feeds);
      if (listeners?.size === 0) this.byEnterprise.delete(E_ID);
    }
  }
}
