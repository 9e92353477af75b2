import type { GeoJSONSource } from 'maplibre-gl';
import { useEffect } from 'react';
import { FONT_STACK } from './basemapStyle';
import { fenceFeatures, type MapFence } from './fenceFeatures';
import { useMapHandle } from './mapContext';
import { emptyCollection } from './shapeDrawFeatures';

export type { MapFence } from './fenceFeatures';

const AREA_SOURCE = 'fences-area';
const LABEL_SOURCE = 'fences-label';
export const FENCE_LAYERS = { fill: 'fences-fill', line: 'fences-line', label: 'fences-label' } as const;
export const FENCE_COLOUR = '#722ed1';

/**
 * Fences on the map: translucent areas with an outline and the fence's name. Put it before the
 * users' layers so they draw above it. `visible` hides them without removing anything. Renders
 * nothing.
 */
export function MapFences({ fences, visible = true }: { fences: readonly MapFence[]; visible?: boolean }) {
  const { map, project } = useMapHandle();

  useEffect(() => {
    map.addSource(AREA_SOURCE, { type: 'geojson', data: emptyCollection() });
    map.addSource(LABEL_SOURCE, { type: 'geojson', data: emptyCollection() });
    map.addLayer({
      id: FENCE_LAYERS.fill,
      type: 'fill',
      source: AREA_SOURCE,
      paint: { 'fill-color': FENCE_COLOUR, 'fill-opacity': 0.1 },
    });
    map.addLayer({
      id: FENCE_LAYERS.line,
      type: 'line',
      source: AREA_SOURCE,
      layout: { 'line-join': 'round' },
      paint: { 'line-color': FENCE_COLOUR, 'line-width': 2, 'line-opacity': 0.8 },
    });
    map.addLayer({
      id: FENCE_LAYERS.label,
      type: 'symbol',
      source: LABEL_SOURCE,
      minzoom: 9,
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_STACK],
        'text-size': 12,
        'text-max-width': 10,
        'text-anchor': 'bottom',
        'text-offset': [0, -0.3],
      },
      paint: { 'text-color': '#391085', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    });
    return () => {
      for (const layer of [FENCE_LAYERS.label, FENCE_LAYERS.line, FENCE_LAYERS.fill])
        if (map.getLayer(layer)) map.removeLayer(layer);
      for (const source of [LABEL_SOURCE, AREA_SOURCE]) if (map.getSource(source)) map.removeSource(source);
    };
  }, [map]);

  useEffect(() => {
    const { areas, labels } = fenceFeatures(fences, project);
    void map.getSource<GeoJSONSource>(AREA_SOURCE)?.setData(areas);
    void map.getSource<GeoJSONSource>(LABEL_SOURCE)?.setData(labels);
  }, [map, project, fences]);

  useEffect(() => {
    for (const layer of Object.values(FENCE_LAYERS))
      if (map.getLayer(layer)) map.setLayoutProperty(layer, 'visibility', visible ? 'visible' : 'none');
  }, [map, visible]);

  return null;
}
