import type { UserDiff, UserPointIndex } from './UserPointIndex';

/** Where the feeder sends users: the tile worker behind the map's users source (tests pass a fake). */
export interface UsersSourceLike {
  /**
   * Sends the users `upsert` as the index holds them now and the users `remove` gone; with
   * `replace`, every user not sent is dropped (a snapshot). Resolves once the map can draw them.
   */
  send(upsert: readonly number[], remove: readonly number[], replace: boolean): Promise<unknown>;
  /**
   * Resolves once the source's tiles in view hold what it took, or after a cap; a batch sent before
   * that makes the tiles be cut and loaded again before anyone saw them.
   */
  tilesSettled?(): Promise<void>;
}

/**
 * How long a batch waits after the tiles of the last were loaded, per user on the map (at most
 * MAX_DIFF_PAUSE_MS): each batch clusters every user again in the tile worker and reloads the tiles
 * in view, and at 50,000 users the tile worker, MapLibre's worker, the renderer and the page share
 * two cores here; a short breath lets the frames through. 5,000 users wait 5 ms, 50,000 wait 50 ms
 * (200 ms gave a worse fix-to-frame p95 at 50,000, bench/map.ts); the changes of that time go as one batch.
 */
export const DIFF_PAUSE_MS_PER_USER = 0.001;
export const MAX_DIFF_PAUSE_MS = 50;

/**
 * Least time between the starts of two batches: the map redraws its users at most 4 times a second.
 * The hub pushes every 50 ms (HUB_PUSH_INTERVAL_MS), so alarms and states reach the page that soon,
 * but each batch clusters and reloads the users' tiles: a batch per push doubled the page's main
 * thread CPU at 5,000 users (bench/map.ts, 85 to 179 ms a second) for 90 ms of fix-to-frame p95.
 */
export const MIN_BATCH_INTERVAL_MS = 250;

export interface FeederTimings {
  /** DIFF_PAUSE_MS_PER_USER. */
  pauseMsPerUser?: number;
  /** MIN_BATCH_INTERVAL_MS. */
  minIntervalMs?: number;
  now?: () => number;
}

/**
 * Keeps the source holding the index's users: a snapshot (`replaceAll`) as one batch replacing
 * everything, then the users changed since, one batch at a time: each once the tiles of the last
 * are drawn (`tilesSettled`) and a pause that grows with the users has passed
 * (DIFF_PAUSE_MS_PER_USER), the changes made meanwhile merged and each user sent as the index
 * holds it then. A snapshot waits for nothing but a batch in flight, and drops the changes waiting.
 */
export class UserSourceFeeder {
  /** Users changed (moved, new, other properties or gone) since the last batch was sent. */
  private readonly waiting = new Set<number>();
  private replacing = false;
  private inFlight = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSettledAt = Number.NEGATIVE_INFINITY;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private readonly pauseMsPerUser: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: UsersSourceLike,
    private readonly index: UserPointIndex,
    timings: FeederTimings = {},
  ) {
    this.pauseMsPerUser = timings.pauseMsPerUser ?? DIFF_PAUSE_MS_PER_USER;
    this.minIntervalMs = timings.minIntervalMs ?? MIN_BATCH_INTERVAL_MS;
    this.now = timings.now ?? (() => performance.now());
  }

  /** The index was replaced (a snapshot): the source is to hold exactly its users. */
  replaceAll(): void {
    this.replacing = true;
    this.waiting.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sendWaiting();
  }

  /** Sends the users of a diff of the index (UserPointIndex.apply) with the next batch. */
  apply(diff: UserDiff | null): void {
    if (!diff) return;
    for (const id of diff.upsert) this.waiting.add(id);
    for (const id of diff.remove) this.waiting.add(id);
    this.sendWaiting();
  }

  /** Sends nothing more (the source is going). */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    clearTimeout(this.timer);
  }

  private sendWaiting(): void {
    if (this.stopped || this.inFlight || this.timer !== undefined) return;
    if (!this.replacing && this.waiting.size === 0) return;
    const pause = Math.min(MAX_DIFF_PAUSE_MS, this.index.size * this.pauseMsPerUser);
    const due = Math.max(this.lastSettledAt + pause, this.lastSentAt + this.minIntervalMs);
    const wait = this.replacing ? 0 : due - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.sendWaiting();
      }, wait);
      return;
    }
    const replace = this.replacing;
    const upsert: number[] = [];
    const remove: number[] = [];
    for (const id of replace ? this.index.ids() : this.waiting) (this.index.get(id) ? upsert : remove).push(id);
    this.replacing = false;
    this.waiting.clear();
    this.inFlight = true;
    this.lastSentAt = this.now();
    const done = () => {
      this.inFlight = false;
      this.lastSettledAt = this.now();
      this.sendWaiting();
    };
    // A source gone under a batch (the page closing) rejects it: nothing is left to update then.
    this.source
      .send(upsert, remove, replace)
      .then(() => this.source.tilesSettled?.())
      .then(done, () => undefined);
  }
}
