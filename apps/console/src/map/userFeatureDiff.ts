import type { Feature, FeatureCollection, Point } from 'geojson';
import type { UserMapState } from './userMapState';

/** What the users source holds per user: as little as the layers need (it crosses to a worker). */
export interface UserPoint {
  lon: number;
  lat: number;
  name: string;
  state: UserMapState;
}

export type UserFeature = Feature<Point, { name: string; state: UserMapState }>;

export interface UserDiff {
  add: UserFeature[];
  update: { id: number; newGeometry?: Point; addOrUpdateProperties?: { key: string; value: unknown }[] }[];
  remove: number[];
}

export function userFeature(id: number, point: UserPoint): UserFeature {
  return {
    type: 'Feature',
    id,
    geometry: { type: 'Point', coordinates: [point.lon, point.lat] },
    properties: { name: point.name, state: point.state },
  };
}

/**
 * The users the map source holds, and what to send it when they change: a diff for
 * `GeoJSONSource.updateData` of the users that changed, however many (a snapshot is loaded whole
 * through UserSourceFeeder instead). Loading every user again costs more than a diff of most of
 * them since the feeder sends changed users as additions (MapLibre's worker applies additions in
 * linear time, updates in quadratic).
 */
export class UserFeatureIndex {
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

  /** Replaces everything (UserSourceFeeder then loads it into the source in parts). */
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

  collection(): FeatureCollection<Point> {
    const features: UserFeature[] = [];
    for (const [id, point] of this.points) features.push(userFeature(id, point));
    return { type: 'FeatureCollection', features };
  }

  /**
   * Applies new values for some users (`undefined` removes one). Returns the diff, or `null` when
   * nothing changed.
   */
  apply(changes: Iterable<[number, UserPoint | undefined]>): UserDiff | null {
    const diff: UserDiff = { add: [], update: [], remove: [] };
    let changed = 0;
    for (const [id, next] of changes) {
      const previous = this.points.get(id);
      if (!next) {
        if (previous) {
          this.points.delete(id);
          diff.remove.push(id);
          changed++;
        }
        continue;
      }
      if (!previous) {
        this.points.set(id, next);
        diff.add.push(userFeature(id, next));
        changed++;
        continue;
      }
      const moved = previous.lon !== next.lon || previous.lat !== next.lat;
      const properties: { key: string; value: unknown }[] = [];
      if (previous.state !== next.state) properties.push({ key: 'state', value: next.state });
      if (previous.name !== next.name) properties.push({ key: 'name', value: next.name });
      if (!moved && properties.length === 0) continue;
      this.points.set(id, next);
      diff.update.push({
        id,
        ...(moved ? { newGeometry: { type: 'Point', coordinates: [next.lon, next.lat] } } : {}),
        ...(properties.length > 0 ? { addOrUpdateProperties: properties } : {}),
      });
      changed++;
    }
    return changed === 0 ? null : diff;
  }
}
