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
  const ids = new Float64Array(present.length);
  const lon = new Float64Array(present.length);
  const lat = new Float64Array(present.length);
  const states = new Uint8Array(present.length);
  const named: [number, string][] = [];
  present.forEach(([id, point], i) => {
    ids[i] = id;
    lon[i] = point.lon;
    lat[i] = point.lat;
    states[i] = stateCode(point.state);
    if (sentNames.get(id) === point.name) return;
    sentNames.set(id, point.name);
    named.push([id, point.name]);
  });
  return {
    replace,
    ids,
    lon,
    lat,
    states,
    nameIds: new Float64Array(named.map(([id]) => id)),
    nameLengths: new Uint32Array(named.map(([, name]) => name.length)),
    nameText: named.map(([, name]) => name).join(''),
    removed: new Float64Array(replace ? [] : removed),
  };
}

/** The arrays a batch moves (transfers) between threads instead of copying. */
export function batchTransfer(batch: UserBatch): ArrayBuffer[] {
  return [batch.ids, batch.lon, batch.lat, batch.states, batch.nameIds, batch.nameLengths, batch.removed].map(
    (array) => array.buffer as ArrayBuffer,
  );
}
