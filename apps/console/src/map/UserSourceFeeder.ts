import type { FeatureCollection, Point } from 'geojson';
import { userFeature, type UserDiff, type UserFeature, type UserFeatureIndex } from './userFeatureDiff';

/** The part of MapLibre's GeoJSONSource the feeder uses (tests pass a fake). */
export interface UsersSourceLike {
  setData(data: FeatureCollection<Point>): Promise<unknown>;
  updateData(diff: UserDiff): Promise<unknown>;
}

/**
 * Features handed to MapLibre in one call. Each call is copied to MapLibre's worker in one task
 * on the main thread (structured clone); 50,000 features at once took well over 50 ms.
 */
export const FEATURES_PER_CALL = 5000;

/**
 * Puts the index's users into the source: a whole new set (a snapshot) in calls of `perCall`
 * features, each sent when MapLibre's worker has taken the last (so MapLibre never merges them back
 * into one big message), and diffs as they come. A diff that arrives while a set is being loaded
 * goes at once: MapLibre ignores updates of features it does not hold yet, and the calls still to
 * come take each user from the index as it is when they are made, so none is left behind.
 */
export class UserSourceFeeder {
  private generation = 0;

  constructor(
    private readonly source: UsersSourceLike,
    private readonly index: UserFeatureIndex,
    private readonly perCall = FEATURES_PER_CALL,
  ) {}

  /** Replaces the source's users with every user of the index; resolves once all were sent (or replaced again). */
  async replaceAll(): Promise<void> {
    const generation = ++this.generation;
    const ids = [...this.index.ids()];
    const slice = (from: number): UserFeature[] => {
      const features: UserFeature[] = [];
      for (const id of ids.slice(from, from + this.perCall)) {
        const point = this.index.get(id);
        if (point) features.push(userFeature(id, point));
      }
      return features;
    };
    await this.source.setData({ type: 'FeatureCollection', features: slice(0) });
    for (let from = this.perCall; from < ids.length; from += this.perCall) {
      if (generation !== this.generation) return;
      await this.source.updateData({ add: slice(from), update: [], remove: [] });
    }
  }

  /** Sends a diff of the index (UserFeatureIndex.apply); `reset` loads everything anew. */
  apply(diff: UserDiff | 'reset' | null): void {
    // A source removed under a call (the page closing) rejects it: nothing is left to update then.
    if (diff === 'reset') void this.replaceAll().catch(() => undefined);
    else if (diff) void this.source.updateData(diff).catch(() => undefined);
  }

  /** Stops a load under way (the source is going). */
  stop(): void {
    this.generation++;
  }
}
