import type { SessionCheck } from './HubController';
import type { FoundUser, HubWorkerCommand, HubWorkerEvent } from './hubWorkerMessages';
import { LiveView } from './LiveView';

/** The part of a Worker the client uses (tests pass one end of a MessageChannel). */
export interface WorkerLike {
  postMessage(message: HubWorkerCommand, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<HubWorkerEvent>) => void) | null;
  onerror?: ((event: ErrorEvent) => void) | null;
}

export interface HubWorkerClientDeps {
  createWorker(): WorkerLike;
  /** The session's bearer token now ('' when signed out). */
  token(): string;
  /** The hub said the session is over: the console's session-failure path decides (liveHub.ts). */
  checkSession(reason: Error): Promise<SessionCheck>;
  /** Connected again after a loss: refetch what the pushes patch. */
  onResync(): void;
}

/** A map's feed of users (HubWorkerClient.openFeed). */
export interface MapFeed {
  /** The map drew the batch numbered `batch`: the worker sends the next one. */
  drawn(batch: number): void;
  close(): void;
}

/**
 * The page's side of the hub worker (hub.worker.ts), which owns the tab's one hub connection:
 * starts and stops it, keeps the LiveView the screens read, and passes searches, watched users
 * and the maps' batches of users. The worker is made on first use.
 */
export class HubWorkerClient {
  readonly view = new LiveView();
  private worker: WorkerLike | undefined;
  private readonly searches = new Map<number, (users: FoundUser[]) => void>();
  private readonly watchers = new Map<number, number>();
  private nextId = 1;

  constructor(private readonly deps: HubWorkerClientDeps) {}

  start(): void {
    this.send({ type: 'start' });
  }

  stop(): void {
    this.send({ type: 'stop' });
  }

  /** Reconnects with a new scope (the working enterprise changed). */
  restart(): void {
    this.send({ type: 'restart' });
  }

  /** Up to `max` users with a position whose name or phone contains `text`. */
  search(text: string, max: number): Promise<FoundUser[]> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.searches.set(id, resolve);
      this.send({ type: 'search', id, text, max });
    });
  }

  /** Keeps `view.watched` holding the user's latest record until the returned function is called. */
  watch(userId: number): () => void {
    this.watchers.set(userId, (this.watchers.get(userId) ?? 0) + 1);
    this.sendWatched();
    return () => {
      const count = (this.watchers.get(userId) ?? 1) - 1;
      if (count > 0) {
        this.watchers.set(userId, count);
        return;
      }
      this.watchers.delete(userId);
      this.view.forget(userId);
      this.sendWatched();
    };
  }

  /**
   * Has the worker post every batch of users a map needs (first all of them) on `port` (FeedBatch),
   * each after the map said the last was drawn; `gcj02` shifts them for AMap tiles. The port's other
   * end is the map's tile worker, so the batches never pass through the page's main thread.
   */
  openFeed(gcj02: boolean, port: MessagePort): MapFeed {
    const feed = this.nextId++;
    let open = true;
    this.send({ type: 'feedOpen', feed, gcj02, port }, [port]);
    return {
      drawn: (batch) => {
        if (open) this.send({ type: 'feedDrawn', feed, batch });
      },
      close: () => {
        if (!open) return;
        open = false;
        this.send({ type: 'feedClose', feed });
      },
    };
  }

  private sendWatched(): void {
    this.send({ type: 'watch', ids: [...this.watchers.keys()] });
  }

  private send(command: HubWorkerCommand, transfer: Transferable[] = []): void {
    this.connectWorker().postMessage(command, transfer);
  }

  private connectWorker(): WorkerLike {
    if (this.worker) return this.worker;
    const worker = this.deps.createWorker();
    worker.onmessage = (event) => this.take(event.data);
    // A worker that cannot run (its script blocked) leaves the page without live data: say so,
    // and answer the searches it will never answer.
    worker.onerror = () => {
      this.view.fail();
      for (const found of this.searches.values()) found([]);
      this.searches.clear();
    };
    this.worker = worker;
    return worker;
  }

  private take(event: HubWorkerEvent): void {
    switch (event.type) {
      case 'view': {
        // A user no screen watches any more may still be in a view sent before the worker knew.
        const watched = event.changes.watched?.filter(([id]) => this.watchers.has(id));
        return this.view.apply(watched ? { ...event.changes, watched } : event.changes);
      }
      case 'found':
        this.searches.get(event.id)?.(event.users);
        this.searches.delete(event.id);
        return;
      case 'token':
        return this.send({ type: 'token', id: event.id, token: this.deps.token() });
      case 'session':
        void this.deps
          .checkSession(new Error(event.reason))
          .then((check) => this.send({ type: 'session', id: event.id, check }));
        return;
      case 'resync':
        return this.deps.onResync();
    }
  }
}
