import type { GeoJSONSource } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useMapHandle } from './mapContext';

const SOURCE = 'track-marker';
const HALO = 'track-marker-halo';
const POINT = 'track-marker-point';

export interface TrackMarkerPosition {
  lon: number;
  lat: number;
}

/**
 * The replay's moving marker on a source of its own (one point, set each frame), above the
 * path; while following, the camera stays on it. Renders nothing.
 */
export function MapTrackMarker({
  position,
  follow,
  onDrag,
}: {
  position: TrackMarkerPosition | undefined;
  follow: boolean;
  /** The dispatcher dragged the map: following would pull it straight back, so the page stops it. */
  onDrag: () => void;
}) {
  const { map, project } = useMapHandle();
  const dragRef = useRef(onDrag);
  useEffect(() => {
    dragRef.current = onDrag;
  });

  useEffect(() => {
    const drag = () => dragRef.current();
    map.on('dragstart', drag);
    return () => {
      map.off('dragstart', drag);
    };
  }, [map]);

  useEffect(() => {
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: HALO,
      type: 'circle',
      source: SOURCE,
      paint: { 'circle-radius': 14, 'circle-color': '#1677ff', 'circle-opacity': 0.25 },
    });
    map.addLayer({
      id: POINT,
      type: 'circle',
      source: SOURCE,
      paint: {
        'circle-radius': 7,
        'circle-color': '#1677ff',
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 3,
      },
    });
    return () => {
      for (const layer of [POINT, HALO]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  const lon = position?.lon;
  const lat = position?.lat;
  useEffect(() => {
    const source = map.getSource<GeoJSONSource>(SOURCE);
    if (!source) return;
    if (lon === undefined || lat === undefined) {
      void source.setData({ type: 'FeatureCollection', features: [] });
      return;
    }
    const at = project(lon, lat);
    void source.setData({ type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties: {} });
    // A jump, not an ease: the marker moves every frame and an ease would always lag behind it.
    if (follow) map.jumpTo({ center: at });
  }, [map, project, lon, lat, follow]);

  return null;
}
