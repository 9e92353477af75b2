import type { GeoJSONSource } from 'maplibre-gl';
import { useEffect } from 'react';
import { FONT_STACK } from './basemapStyle';
import { useMapHandle } from './mapContext';
import { stateColourExpression } from './stateColourExpression';
import type { UserMapState } from '../shared/hub/userMapState';

const SOURCE = 'selected-user';
const HALO = 'selected-user-halo';
const POINT = 'selected-user-point';
const LABEL = 'selected-user-label';

export interface SelectedUserPoint {
  id: number;
  lon: number;
  lat: number;
  name: string;
  state: UserMapState;
}

/**
 * The selected user on a source of its own, above the clusters, so a cluster never hides it
 * (traccar-web MapPositions' selected source). Renders nothing.
 */
export function MapSelectedUser({ user }: { user: SelectedUserPoint | undefined }) {
  const { map, project } = useMapHandle();

  useEffect(() => {
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: HALO,
      type: 'circle',
      source: SOURCE,
      paint: { 'circle-radius': 16, 'circle-color': '#1677ff', 'circle-opacity': 0.25 },
    });
    map.addLayer({
      id: POINT,
      type: 'circle',
      source: SOURCE,
      paint: {
        'circle-radius': 9,
        'circle-color': stateColourExpression(),
        'circle-stroke-color': '#1677ff',
        'circle-stroke-width': 3,
      },
    });
    map.addLayer({
      id: LABEL,
      type: 'symbol',
      source: SOURCE,
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_STACK],
        'text-size': 13,
        'text-offset': [0, 1.4],
        'text-anchor': 'top',
        'text-allow-overlap': true,
      },
      paint: { 'text-color': '#141414', 'text-halo-color': '#ffffff', 'text-halo-width': 2 },
    });
    return () => {
      for (const layer of [LABEL, POINT, HALO]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  const lon = user?.lon;
  const lat = user?.lat;
  const name = user?.name;
  const state = user?.state;
  const id = user?.id;
  useEffect(() => {
    const source = map.getSource<GeoJSONSource>(SOURCE);
    if (!source) return;
    if (id === undefined || lon === undefined || lat === undefined) {
      void source.setData({ type: 'FeatureCollection', features: [] });
      return;
    }
    void source.setData({
      type: 'Feature',
      id,
      geometry: { type: 'Point', coordinates: project(lon, lat) },
      properties: { name, state },
    });
  }, [map, project, id, lon, lat, name, state]);

  return null;
}
