import type { UserPoint } from './UserPointIndex';
import { USER_MAP_STATES, type UserMapState } from '../userMapState';

/**
 * Users changed in one go, in arrays the page hands to the worker without copying (transferred):
 * the i-th user is `ids[i]` at `lon[i]`, `lat[i]` in state `USER_MAP_STATES[states[i]]`. The names
 * are only those the worker may not have yet (new users, renamed users): the j-th is user
 * `nameIds[j]`'s, the next `nameLengths[j]` characters of `nameText`. One string, not a list of
 * 50,000: copying a list of pairs between threads took the page's main thread 285 ms per snapshot
 * (docs/benchmarks.md). With `replace`, every user not in the batch is dropped (a snapshot); else
 * `removed` lists the users gone.
 */
export interface UserBatch {
  replace: boolean;
  ids: Float64Array;
  lon: Float64Array;
  lat: Float64Array;
  states: Uint8Array;
  nameIds: Float64Array;
  nameLengths: Uint32Array;
  nameText: string;
  removed: Float64Array;
}

/** The names a batch carries, by user id. */
export function batchNames(batch: UserBatch): Map<number, string> {
  const names = new Map<number, string>();
  let at = 0;
  for (let j = 0; j < batch.nameIds.length; j++) {
    const length = batch.nameLengths[j]!;
    names.set(batch.nameIds[j]!, batch.nameText.slice(at, at + length));
    at += length;
  }
  return names;
}

/** The code of a state in a batch. */
export function stateCode(state: UserMapState): number {
  return USER_MAP_STATES.indexOf(state);
}

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
