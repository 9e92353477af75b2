import { prewarm, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

let started = false;

/**
 * Tells MapLibre where its worker script went (the bundler renamed it; MapLibre looks beside its
 * own module) and starts its workers (0.5 MB of code to load and start), once. Whatever touches
 * MapLibre's workers first calls it: a map, or the users' tile protocol of a tile worker started
 * before any map (prewarmUsersTileWorker). Workers started without it never load.
 */
export function startMapLibreWorkers(): void {
  if (started) return;
  started = true;
  setWorkerUrl(workerUrl);
  prewarm();
}
