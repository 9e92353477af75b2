import { userFeature, type UserDiff, type UserFeature, type UserFeatureIndex } from './userFeatureDiff';

/** The part of MapLibre's GeoJSONSource the feeder uses (tests pass a fake). */
export interface UsersSourceLike {
  updateData(diff: UserDiff): Promise<unknown>;
}

/**
 * Features handed to MapLibre in one call. Each call is copied to MapLibre's worker in one task
 * on the main thread (structured clone); 50,000 features at once took well over 50 ms.
 */
export const FEATURES_PER_CALL = 5000;

/**
 * Puts the index's users into the source: a whole new set (a snapshot) as `updateData` calls of
 * `perCall` users each (`add` replaces a user the source holds), the first also removing the users
 * the set no longer has, each call made when MapLibre's worker has taken the last (so MapLibre
 * never merges them back into one big message); and diffs as they come. The source is never
 * emptied, so a snapshot that comes again (a resync) leaves the users on screen while it loads,
 * and one that replaces a load still under way loses nothing. A diff that arrives while a set is
 * being loaded goes at once: MapLibre ignores updates of users it does not hold yet, and the calls
 * still to come take each user from the index as it is when they are made.
 */
export class UserSourceFeeder {
  private generation = 0;
  /** Users sent to the source and not removed since. */
  private readonly held = new Set<number>();

  constructor(
    private readonly source: UsersSourceLike,
    private readonly index: UserFeatureIndex,
    private readonly perCall = FEATURES_PER_CALL,
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

  /** Sends a diff of the index (UserFeatureIndex.apply); `reset` loads everything anew. */
  apply(diff: UserDiff | 'reset' | null): void {
    // A source removed under a call (the page closing) rejects it: nothing is left to update then.
    if (diff === 'reset') void this.replaceAll().catch(() => undefined);
    else if (diff) void this.send(diff).catch(() => undefined);
  }

  /** Stops a load under way (the source is going). */
  stop(): void {
    this.generation++;
  }

  private send(diff: UserDiff): Promise<unknown> {
    for (const id of diff.remove) this.held.delete(id);
    for (const feature of diff.add) this.held.add(feature.id as number);
    return this.source.updateData(diff);
  }
}
