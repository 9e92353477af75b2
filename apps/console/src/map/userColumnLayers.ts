import type { ExpressionSpecification, Map as MapLibreMap } from 'maplibre-gl';
import { stateColourExpression } from './stateColourExpression';
import { USERS_COLUMNS_LAYER } from './userColumns';
import { USERS_TILE_LAYER } from './UserTileIndex';

/** The 3D map's columns: one per user, coloured by state, and one per cluster, taller the more it holds. */
export const USERS_COLUMNS = 'users-columns';
/** The ring under an SOS user's column that pulses. */
export const USERS_SOS_PULSE = 'users-sos-pulse';

const CLUSTER: ExpressionSpecification = ['has', 'point_count'];
const SOS: ExpressionSpecification = ['==', ['get', 'state'], 'sos'];
/** Metres a pixel spans at zoom 0 on the equator (512 px tiles). */
const METRES_PER_PIXEL_Z0 = 78_271.5;
/** A user's column stands this many pixels tall whatever the zoom; an SOS one taller, a cluster by its count. */
const COLUMN_PX = 40;
const height = (px: ExpressionSpecification | number, zoom: number): ExpressionSpecification => [
  '*',
  px,
  (METRES_PER_PIXEL_Z0 * COLUMN_PX) / 2 ** zoom,
];
const ZOOMS = Array.from({ length: 23 }, (_, zoom) => zoom);
const scale: ExpressionSpecification = [
  'case',
  CLUSTER,
  ['+', 1, ['*', 0.6, ['ln', ['get', 'point_count']]]],
  SOS,
  1.5,
  1,
];

/** The pulse's steps (radius px, opacity): a few a second, each step one repaint, none between. */
const PULSE_STEPS: readonly [number, number][] = [
  [10, 0.55],
  [16, 0.4],
  [22, 0.25],
  [28, 0.1],
];
const PULSE_STEP_MS = 250;

/**
 * Adds the columns (fill-extrusion of the footprints the tile worker cuts, USERS_COLUMNS_LAYER of
 * `source`) and the SOS pulse under them. Heights follow the zoom exponentially so a column keeps
 * its size on screen, as the circles of the 2D map do.
 */
export function addUserColumnLayers(map: MapLibreMap, source: string, before?: string): void {
  map.addLayer(
    {
      id: USERS_SOS_PULSE,
      type: 'circle',
      source,
      'source-layer': USERS_TILE_LAYER,
      filter: ['all', ['!', CLUSTER], SOS],
      paint: {
        'circle-color': '#f5222d',
        'circle-radius': PULSE_STEPS[0]![0],
        'circle-opacity': PULSE_STEPS[0]![1],
        'circle-pitch-alignment': 'map',
        'circle-stroke-color': '#f5222d',
        'circle-stroke-width': 2,
        'circle-stroke-opacity': PULSE_STEPS[0]![1],
      },
    },
    before,
  );
  map.addLayer(
    {
      id: USERS_COLUMNS,
      type: 'fill-extrusion',
      source,
      'source-layer': USERS_COLUMNS_LAYER,
      paint: {
        'fill-extrusion-color': ['case', CLUSTER, '#1677ff', stateColourExpression()],
        // A stop per zoom: an interpolation interpolates values linearly (its base only bends the
        // factor), so two stops far apart would keep a column kilometres tall up to zoom 20.
        'fill-extrusion-height': [
          'interpolate',
          ['exponential', 2],
          ['zoom'],
          ...ZOOMS.flatMap((zoom) => [zoom, height(scale, zoom)]),
        ] as unknown as ExpressionSpecification,
        'fill-extrusion-opacity': 0.92,
      },
    },
    before,
  );
}

/**
 * Makes the SOS rings pulse while any is drawn: a step every PULSE_STEP_MS, and no repaint at all
 * while there is none to pulse (each repaint of a globe costs a PC without a GPU). Returns the stop.
 */
export function pulseSos(map: MapLibreMap): () => void {
  let step = 0;
  const timer = setInterval(() => {
    if (!map.getLayer(USERS_SOS_PULSE) || document.hidden) return;
    if (map.queryRenderedFeatures({ layers: [USERS_SOS_PULSE] }).length === 0) {
      if (step === 0) return;
      step = 0;
    } else step = (step + 1) % PULSE_STEPS.length;
    const [radius, opacity] = PULSE_STEPS[step]!;
    map.setPaintProperty(USERS_SOS_PULSE, 'circle-radius', radius);
    map.setPaintProperty(USERS_SOS_PULSE, 'circle-opacity', opacity);
    map.setPaintProperty(USERS_SOS_PULSE, 'circle-stroke-opacity', opacity);
  }, PULSE_STEP_MS);
  return () => clearInterval(timer);
}
