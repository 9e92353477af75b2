import { HubController, type HubConnectionLike, type SessionCheck } from './HubController';
import type { HubProtocolName } from './hubProtocolChoice';
import type { FeedBatch, HubWorkerCommand, HubWorkerEvent } from './hubWorkerMessages';
import { LiveViewPublisher } from './LiveViewPublisher';
import { batchTransfer } from './userFeed/userBatch';
import { UserFeed } from './userFeed/UserFeed';

/** The end of the channel to the page (a worker's global scope, or a MessagePort in tests). */
export interface PagePort {
  postMessage(message: HubWorkerEvent, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<HubWorkerCommand>) => void) | null;
}

/** Builds the hub connection in `protocol`; `token` asks the page for the session's bearer token. */
export type ConnectionFactory = (token: () => Promise<string>, protocol: HubProtocolName) => HubConnectionLike;

/** Searches return at most this many users, whatever the page asks. */
const MAX_FOUND = 100;

/** The page's answer to a session check (`answer` below sends only these two). */
function sessionCheck(answer: string): SessionCheck {
  return answer === 'valid' ? 'valid' : 'ended';
}

/**
 * The hub worker (hub.worker.ts): owns the tab's one hub connection (HubController) and its
 * LiveStore, and answers the page's LiveView, searches and maps. The page keeps what only it can
 * do: the session's token (a cookie) and the session check after a 401.
 */
export class HubWorkerHost {
  private readonly controller: HubController;
  private readonly publisher: LiveViewPublisher;
  private readonly feeds = new Map<number, { feed: UserFeed; port: MessagePort; drawn: Map<number, () => void> }>();
  private readonly asked = new Map<number, (answer: string) => void>();
  private nextId = 1;
  private nextBatch = 1;

  constructor(
    private readonly port: PagePort,
    createConnection: ConnectionFactory,
    /** The protocol to try first (hub.worker.ts: MessagePack). */
    protocol: HubProtocolName = 'json',
  ) {
    this.controller = new HubController({
      protocol,
      createConnection: (chosen) => createConnection(() => this.ask({ type: 'token', id: 0 }), chosen),
      checkSession: (reason) => this.ask({ type: 'session', id: 0, reason: reason.message }).then(sessionCheck),
      onResync: () => this.post({ type: 'resync' }),
    });
    this.publisher = new LiveViewPublisher(this.controller.store, (changes, transfer) =>
      this.post({ type: 'view', changes }, transfer),
    );
    port.onmessage = (event) => this.take(event.data);
  }

  private post(event: HubWorkerEvent, transfer: Transferable[] = []): void {
    this.port.postMessage(event, transfer);
  }

  /** Asks the page (a token, a session check); resolves with its answer. */
  private ask(question: Extract<HubWorkerEvent, { type: 'token' | 'session' }>): Promise<string> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.asked.set(id, resolve);
      this.post({ ...question, id });
    });
  }

  private answer(id: number, value: string): void {
    this.asked.get(id)?.(value);
    this.asked.delete(id);
  }

  private take(command: HubWorkerCommand): void {
    switch (command?.type) {
      case 'start':
        return this.controller.start();
      case 'stop':
        return this.controller.stop();
      case 'restart':
        return this.controller.restart();
      case 'watch':
        return this.publisher.watch(Array.isArray(command.ids) ? command.ids.filter(Number.isSafeInteger) : []);
      case 'search': {
        const max = Number.isSafeInteger(command.max) ? Math.min(MAX_FOUND, command.max) : 0;
        const users = this.publisher.search(String(command.text), max);
        return this.post({ type: 'found', id: command.id, users });
      }
      case 'token':
        return this.answer(command.id, String(command.token));
      case 'session':
        return this.answer(command.id, command.check === 'valid' ? 'valid' : 'ended');
      case 'feedOpen':
        // A feed without a port to send its batches on has nowhere to go.
        if (!(command.port instanceof MessagePort)) return;
        return this.openFeed(command.feed, command.gcj02 === true, command.port);
      case 'feedDrawn': {
        const drawn = this.feeds.get(command.feed)?.drawn;
        drawn?.get(command.batch)?.();
        drawn?.delete(command.batch);
        return;
      }
      case 'feedClose': {
        const open = this.feeds.get(command.feed);
        open?.feed.stop();
        open?.port.close();
        this.feeds.delete(command.feed);
        return;
      }
    }
  }

  /** A map's feed: its batches go on `port`, to the map's tile worker. */
  private openFeed(id: number, gcj02: boolean, port: MessagePort): void {
    if (this.feeds.has(id)) return;
    const drawn = new Map<number, () => void>();
    const feed = new UserFeed(this.controller.store, gcj02, (users, bounds) => {
      const batch = this.nextBatch++;
      const message: FeedBatch = { batch, users, bounds, sentAt: Date.now() };
      port.postMessage(message, batchTransfer(users));
      // Settles when the page says the map drew it; a closed feed never does (and sends no more).
      return new Promise<void>((resolve) => drawn.set(batch, resolve));
    });
    this.feeds.set(id, { feed, port, drawn });
  }
}
