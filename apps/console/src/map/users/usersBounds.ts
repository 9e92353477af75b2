import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Bounds } from '../../shared/hub/hubWorkerMessages';

const known = new WeakMap<MapLibreMap, Bounds>();
const listeners = new WeakMap<MapLibreMap, Set<() => void>>();

/**
 * Where the users drawn on `map` are (map coordinates, west-south and east-north), as the last
 * snapshot that had some said; undefined before any user reported. Layers frame the scope by it
 * (the incident drawer, the fence editor) without reading 50,000 users themselves.
 */
export function usersBoundsOf(map: MapLibreMap): Bounds | undefined {
  return known.get(map);
}

/** Calls `listener` each time MapUsers learns new bounds of `map`'s users; returns the unsubscription. */
export function onUsersBounds(map: MapLibreMap, listener: () => void): () => void {
  const set = listeners.get(map) ?? new Set();
  listeners.set(map, set);
  set.add(listener);
  return () => void set.delete(listener);
}

/** Kept by MapUsers as snapshots arrive. */
export function rememberUsersBounds(map: MapLibreMap, bounds: Bounds): void {
  known.set(map, bounds);
  for (const listener of listeners.get(map) ?? []) listener();
}
