import {
  applyHubMessage,
  dataOf,
  draftOf,
  emptyDraft,
  replayMessages,
  type HubMessage,
  type HubStatus,
  type LiveDraft,
  type LiveSnapshot,
} from './liveSnapshot';

/** Runs `flush` a little later; returns a function that cancels it. */
export type Scheduler = (flush: () => void) => () => void;

/**
 * How long a burst may gather before subscribers hear of it: one display frame. The server pushes
 * every 50 ms at most (HUB_PUSH_INTERVAL_MS) and writes a push's messages in one frame, so waiting longer only delays
 * every fix on the map (it was 50 ms: a twentieth of the 1 s fix-to-frame budget).
 */
export const COALESCE_MS = 16;

export const defaultScheduler: Scheduler = (flush) => {
  const timer = setTimeout(flush, COALESCE_MS);
  return () => clearTimeout(timer);
};

/** Messages waiting for one flush; past this, subscribers get a replay of the whole state instead. */
export const MAX_PENDING_MESSAGES = 200;

export type MessagesListener = (messages: readonly HubMessage[]) => void;

function frozen(draft: LiveDraft, status: HubStatus): LiveSnapshot {
  return { ...dataOf(draft), status };
}

/**
 * The latest hub state of this tab, kept in the hub worker, with no connection of its own
 * (HubController feeds it; LiveViewPublisher and the maps' UserFeeds read it).
 * Messages change a draft at once; subscribers hear of a burst once, when it has settled
 * (excalidraw and traccar-web coalesce the same way), and every new subscriber first gets what
 * is already known.
 */
export class LiveStore {
  private snapshot: LiveSnapshot;
  private draft: LiveDraft | null = null;
  private pending: HubMessage[] = [];
  private overflowed = false;
  private cancelFlush: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly messageListeners = new Set<MessagesListener>();

  constructor(private readonly schedule: Scheduler = defaultScheduler) {
    this.snapshot = frozen(emptyDraft(), 'idle');
  }

  /** The same object until something changed (readers compare it, and its maps, by identity). */
  readonly getSnapshot = (): LiveSnapshot => this.snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /**
   * Calls `listener` with the held state as snapshot messages (none before the first snapshot),
   * then with every later burst of messages, in order.
   */
  subscribeMessages(listener: MessagesListener): () => void {
    const replay = replayMessages(this.snapshot);
    if (replay.length > 0) listener(replay);
    this.messageListeners.add(listener);
    return () => {
      this.messageListeners.delete(listener);
    };
  }

  receive(message: HubMessage): void {
    this.draft ??= draftOf(this.snapshot);
    applyHubMessage(this.draft, message);
    if (this.pending.length < MAX_PENDING_MESSAGES) this.pending.push(message);
    else this.overflowed = true;
    this.cancelFlush ??= this.schedule(() => {
      this.cancelFlush = null;
      this.flush();
    });
  }

  /** A new status is shown at once, with whatever messages were waiting. */
  setStatus(status: HubStatus): void {
    if (status === this.snapshot.status && !this.draft) return;
    this.flush(status);
  }

  /** Forgets the data (another scope, or signed out); listeners hear of it at once. */
  reset(status: HubStatus = this.snapshot.status): void {
    this.cancelFlush?.();
    this.cancelFlush = null;
    this.draft = emptyDraft();
    this.pending = [];
    this.overflowed = false;
    this.flush(status);
  }

  /** Publishes the draft and the status, and tells every listener once. */
  flush(status: HubStatus = this.snapshot.status): void {
    this.cancelFlush?.();
    this.cancelFlush = null;
    const draft = this.draft;
    if (!draft && status === this.snapshot.status) return;
    this.snapshot = draft ? frozen(draft, status) : { ...this.snapshot, status };
    this.draft = null;
    const messages = this.overflowed ? replayMessages(this.snapshot) : this.pending;
    this.pending = [];
    this.overflowed = false;
    for (const listener of [...this.listeners]) listener();
    if (messages.length > 0) for (const listener of [...this.messageListeners]) listener(messages);
  }
}
