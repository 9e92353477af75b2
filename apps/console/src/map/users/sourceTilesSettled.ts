import type { Map as MapLibreMap, MapSourceDataEvent } from 'maplibre-gl';

/**
 * How long a diff waits at most for the tiles of the one before. A cap, not a goal: the tiles of a
 * map that draws no frame (a hidden tab) or of a busy worker must not hold positions back for good.
 */
export const TILES_SETTLED_CAP_MS = 2000;

/**
 * Resolves once every tile in view of `sourceId` is loaded (none loading or reloading), at once
 * when it already is or the source is gone, and after `capMs` at the latest.
 */
export function sourceTilesSettled(map: MapLibreMap, sourceId: string, capMs = TILES_SETTLED_CAP_MS): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      map.off('sourcedata', onData);
      resolve();
    };
    const check = () => {
      if (!map.getSource(sourceId) || map.isSourceLoaded(sourceId)) finish();
    };
    const onData = (event: MapSourceDataEvent) => {
      if (event.sourceId === sourceId) check();
    };
    const timer = setTimeout(finish, capMs);
    map.on('sourcedata', onData);
    check();
  });
}
