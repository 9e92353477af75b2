import { userFeature, type UserDiff, type UserFeature, type UserFeatureIndex } from './userFeatureDiff';

/** The part of MapLibre's GeoJSONSource the feeder uses (tests pass a fake). */
export interface UsersSourceLike {
  updateData(diff: UserDiff): Promise<unknown>;
  /**
   * Resolves once the source's tiles in view hold what it took (MapLibre rebuilds every tile of a
   * clustered source after a diff), or after a cap; a diff sent before that makes the worker build
   * the tiles again before anyone saw them.
   */
  tilesSettled?(): Promise<void>;
}

/**
 * Features handed to MapLibre in one call. Each call is copied to MapLibre's worker in one task
 * on the main thread (structured clone); 50,000 features at once took well over 50 ms.
 */
export const FEATURES_PER_CALL = 5000;

/**
 * How long diffs wait after MapLibre's worker took the last one, per user in the source (at most
 * MAX_DIFF_PAUSE_MS): each diff re-clusters every user in the worker, which at 50,000 users kept a
 * core busy when diffs were sent back to back (and starved the tiles of a new zoom, bench/map.ts).
 * 5,000 users wait 50 ms, 50,000 wait 500 ms; the diffs of that time go as one.
 */
export const DIFF_PAUSE_MS_PER_USER = 0.01;
export const MAX_DIFF_PAUSE_MS = 500;

/**
 * Puts the index's users into the source: a whole new set (a snapshot) as `updateData` calls of
 * `perCall` users each (`add` replaces a user the source holds), the first also removing the users
 * the set no longer has, each call made when MapLibre's worker has taken the last (so MapLibre
 * never merges them back into one big message); and diffs, one at a time, each once the tiles of
 * the last were built (`tilesSettled`) and a pause after that grows with the users
 * (DIFF_PAUSE_MS_PER_USER), those made meanwhile merged. The source is never
 * emptied, so a snapshot that comes again (a resync) leaves the users on screen while it loads,
 * and one that replaces a load still under way loses nothing. A diff made while a set is being
 * loaded does not wait for the load: it sends the users it changed as they are (those not loaded yet
 * too), and the calls still to come take each user from the index as it is when they are made.
 */
export class UserSourceFeeder {
  private generation = 0;
  /** Users sent to the source and not removed since. */
  private readonly held = new Set<number>();
  /** Users changed (moved, new, other properties or gone) since the last diff was sent. */
  private readonly waiting = new Set<number>();
  private diffInFlight = false;
  private diffTimer: ReturnType<typeof setTimeout> | undefined;
  private lastDiffAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly source: UsersSourceLike,
    private readonly index: UserFeatureIndex,
    private readonly perCall = FEATURES_PER_CALL,
    private readonly pauseMsPerUser = DIFF_PAUSE_MS_PER_USER,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Makes the source hold exactly the index's users; resolves once all were sent (or a newer set started). */
  async replaceAll(): Promise<void> {
    const generation = ++this.generation;
    const remove = [...this.held].filter((id) => !this.index.get(id));
    // Users the source lacks first: a resync that follows a load cut short shows everyone sooner.
    const ids: number[] = [];
    const again: number[] = [];
    for (const id of this.index.ids()) (this.held.has(id) ? again : ids).push(id);
    for (const id of again) ids.push(id);
    for (let from = 0; from === 0 || from < ids.length; from += this.perCall) {
      if (generation !== this.generation) return;
      const add: UserFeature[] = [];
      for (const id of ids.slice(from, from + this.perCall)) {
        const point = this.index.get(id);
        if (point) add.push(userFeature(id, point));
      }
      await this.send({ add, update: [], remove: from === 0 ? remove : [] });
    }
  }

  /**
   * Sends a diff of the index (UserFeatureIndex.apply) once MapLibre's worker took the last one and
   * the pause after it passed; diffs of that time go as one, each user as the index holds it then.
   * `reset` loads everything anew.
   */
  apply(diff: UserDiff | 'reset' | null): void {
    if (diff === 'reset') {
      // The load takes every user from the index: nothing waiting is needed any more.
      this.waiting.clear();
      // A source removed under a call (the page closing) rejects it: nothing is left to update then.
      void this.replaceAll().catch(() => undefined);
      return;
    }
    if (!diff) return;
    for (const feature of diff.add) this.waiting.add(feature.id as number);
    for (const update of diff.update) this.waiting.add(update.id);
    for (const id of diff.remove) this.waiting.add(id);
    this.sendWaiting();
  }

  /** Stops a load under way and the diffs waiting (the source is going). */
  stop(): void {
    this.generation++;
    this.waiting.clear();
    clearTimeout(this.diffTimer);
  }

  private sendWaiting(): void {
    if (this.diffInFlight || this.diffTimer !== undefined || this.waiting.size === 0) return;
    const pause = Math.min(MAX_DIFF_PAUSE_MS, this.index.size * this.pauseMsPerUser);
    const wait = this.lastDiffAt + pause - this.now();
    if (wait > 0) {
      this.diffTimer = setTimeout(() => {
        this.diffTimer = undefined;
        this.sendWaiting();
      }, wait);
      return;
    }
    const diff = this.waitingDiff();
    this.diffInFlight = true;
    const done = () => {
      this.diffInFlight = false;
      this.lastDiffAt = this.now();
      this.sendWaiting();
    };
    this.send(diff)
      .then(() => this.source.tilesSettled?.())
      .then(done, () => undefined);
  }

  /**
   * The waiting users as one diff, each as the index holds it now: a whole feature (`add` replaces
   * the one the source holds) or a removal, never an `update`. MapLibre's worker (geojson-vt 6.3)
   * applies updates in time that grows with the square of their number (it concatenates its list
   * once per update): 50,000 moves kept the worker busy for over 10 s, against a fraction of a
   * second for the same users as additions (bench/map.ts, docs/benchmarks.md).
   */
  private waitingDiff(): UserDiff {
    const diff: UserDiff = { add: [], update: [], remove: [] };
    for (const id of this.waiting) {
      const point = this.index.get(id);
      if (point) diff.add.push(userFeature(id, point));
      else diff.remove.push(id);
    }
    this.waiting.clear();
    return diff;
  }

  private send(diff: UserDiff): Promise<unknown> {
    for (const id of diff.remove) this.held.delete(id);
    for (const feature of diff.add) this.held.add(feature.id as number);
    return this.source.updateData(diff);
  }
}
