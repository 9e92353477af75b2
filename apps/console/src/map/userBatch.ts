import type { UserPoint } from './UserPointIndex';
import { stateCode, type UserBatch } from './UserTileIndex';

/**
 * The batch for the tile worker of the users `upsert` (as `pointOf` gives them now; a user it no
 * longer has counts as removed) and `remove`. `sentNames` is what the worker was told each user is
 * called: only new names go, and it is brought up to date.
 */
export function userBatch(
  pointOf: (id: number) => UserPoint | undefined,
  upsert: Iterable<number>,
  remove: Iterable<number>,
  replace: boolean,
  sentNames: Map<number, string>,
): UserBatch {
  const present: [number, UserPoint][] = [];
  const removed: number[] = [...remove];
  for (const id of upsert) {
    const point = pointOf(id);
    if (point) present.push([id, point]);
    else removed.push(id);
  }
  if (replace) sentNames.clear();
  for (const id of removed) sentNames.delete(id);
  const batch: UserBatch = {
    replace,
    ids: new Float64Array(present.length),
    lon: new Float64Array(present.length),
    lat: new Float64Array(present.length),
    states: new Uint8Array(present.length),
    names: [],
    removed: new Float64Array(replace ? [] : removed),
  };
  present.forEach(([id, point], i) => {
    batch.ids[i] = id;
    batch.lon[i] = point.lon;
    batch.lat[i] = point.lat;
    batch.states[i] = stateCode(point.state);
    if (sentNames.get(id) === point.name) return;
    sentNames.set(id, point.name);
    batch.names.push([id, point.name]);
  });
  return batch;
}

/** The arrays a batch moves (transfers) between threads instead of copying. */
export function batchTransfer(batch: UserBatch): ArrayBuffer[] {
  return [batch.ids, batch.lon, batch.lat, batch.states, batch.removed].map((array) => array.buffer as ArrayBuffer);
}
