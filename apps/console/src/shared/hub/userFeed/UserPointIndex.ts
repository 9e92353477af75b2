import type { UserMapState } from '../userMapState';

/** What the map holds per user: as little as its layers need (it crosses to the tile worker). */
export interface UserPoint {
  lon: number;
  lat: number;
  name: string;
  state: UserMapState;
}

/** Users changed (new, moved, renamed or another state) and users gone, by id. */
export interface UserDiff {
  upsert: number[];
  remove: number[];
}

/**
 * The users the map shows, as the page last saw them, and which of them a batch of hub records
 * changed (UserSourceFeeder sends those to the tile worker).
 */
export class UserPointIndex {
  private readonly points = new Map<number, UserPoint>();

  get size(): number {
    return this.points.size;
  }

  get(id: number): UserPoint | undefined {
    return this.points.get(id);
  }

  ids(): IterableIterator<number> {
    return this.points.keys();
  }

  /** Replaces everything (a snapshot). */
  replace(points: Iterable<[number, UserPoint]>): void {
    this.points.clear();
    for (const [id, point] of points) this.points.set(id, point);
  }

  /** West-south and east-north corners of every user, or undefined when there are none. */
  bounds(): [[number, number], [number, number]] | undefined {
    if (this.points.size === 0) return undefined;
    let west = 180;
    let south = 90;
    let east = -180;
    let north = -90;
    for (const { lon, lat } of this.points.values()) {
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
    return [
      [west, south],
      [east, north],
    ];
  }

  /**
   * Applies new values for some users (`undefined` removes one). Returns the users that changed
   * (added, moved, renamed, another state) and those removed, or `null` when nothing changed.
   */
  apply(changes: Iterable<[number, UserPoint | undefined]>): UserDiff | null {
    const diff: UserDiff = { upsert: [], remove: [] };
    for (const [id, next] of changes) {
      const previous = this.points.get(id);
      if (!next) {
        if (previous && this.points.delete(id)) diff.remove.push(id);
        continue;
      }
      if (
        previous &&
        previous.lon === next.lon &&
        previous.lat === next.lat &&
        previous.state === next.state &&
        previous.name === next.name
      ) {
        continue;
      }
      this.points.set(id, next);
      diff.upsert.push(id);
    }
    return diff.upsert.length + diff.remove.length === 0 ? null : diff;
  }
}
