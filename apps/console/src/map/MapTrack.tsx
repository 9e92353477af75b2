import type { Track } from '@intercom/contract';
import type { FeatureCollection } from 'geojson';
import { LngLatBounds, type GeoJSONSource, type MapLayerMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { FONT_STACK } from './basemapStyle';
import { useMapHandle } from './mapContext';
import { SPEED_CLASSES, trackPathFeatures, trackPointFeatures } from './trackFeatures';

const PATH_SOURCE = 'track-path';
const POINT_SOURCE = 'track-points';
const PATH = 'track-path-line';
const GAP = 'track-path-gap';
const STOPS = 'track-stops';
const STOP_LABELS = 'track-stop-labels';
const ENDS = 'track-ends';
const empty = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] });

/** Colour of a speed class (`cls` of a path feature). */
const classColour = ['match', ['get', 'cls'], ...SPEED_CLASSES.flatMap((c, i) => [i, c.colour]), '#8c8c8c'];

export const TRACK_START_COLOUR = '#389e0d';
export const TRACK_END_COLOUR = '#cf1322';
export const TRACK_STOP_COLOUR = '#d48806';

/**
 * A track on the map: the path coloured by speed, dashed over "no data" gaps, the start and end,
 * and the stops numbered (a click names the stop's index). Fits the camera to each new track.
 * Renders nothing.
 */
export function MapTrack({ track, onStopClick }: { track: Track | undefined; onStopClick: (index: number) => void }) {
  const { map, project } = useMapHandle();
  const clickRef = useRef(onStopClick);
  useEffect(() => {
    clickRef.current = onStopClick;
  });

  useEffect(() => {
    map.addSource(PATH_SOURCE, { type: 'geojson', data: empty() });
    map.addSource(POINT_SOURCE, { type: 'geojson', data: empty() });
    map.addLayer({
      id: PATH,
      type: 'line',
      source: PATH_SOURCE,
      filter: ['!', ['has', 'gap']],
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': classColour as never, 'line-width': 4 },
    });
    map.addLayer({
      id: GAP,
      type: 'line',
      source: PATH_SOURCE,
      filter: ['has', 'gap'],
      paint: { 'line-color': '#8c8c8c', 'line-width': 2, 'line-dasharray': [2, 2] },
    });
    map.addLayer({
      id: STOPS,
      type: 'circle',
      source: POINT_SOURCE,
      filter: ['==', ['get', 'kind'], 'stop'],
      paint: {
        'circle-radius': 9,
        'circle-color': TRACK_STOP_COLOUR,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    });
    map.addLayer({
      id: STOP_LABELS,
      type: 'symbol',
      source: POINT_SOURCE,
      filter: ['==', ['get', 'kind'], 'stop'],
      layout: {
        'text-field': ['get', 'label'],
        'text-font': [FONT_STACK],
        'text-size': 11,
        'text-allow-overlap': true,
      },
      paint: { 'text-color': '#ffffff' },
    });
    map.addLayer({
      id: ENDS,
      type: 'circle',
      source: POINT_SOURCE,
      filter: ['!=', ['get', 'kind'], 'stop'],
      paint: {
        'circle-radius': 8,
        'circle-color': ['match', ['get', 'kind'], 'start', TRACK_START_COLOUR, TRACK_END_COLOUR],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 3,
      },
    });
    const click = (event: MapLayerMouseEvent) => {
      const index: unknown = event.features?.[0]?.properties?.index;
      if (typeof index === 'number') clickRef.current(index);
    };
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const plain = () => (map.getCanvas().style.cursor = '');
    map.on('click', STOPS, click);
    map.on('mouseenter', STOPS, pointer);
    map.on('mouseleave', STOPS, plain);
    return () => {
      map.off('click', STOPS, click);
      map.off('mouseenter', STOPS, pointer);
      map.off('mouseleave', STOPS, plain);
      for (const layer of [ENDS, STOP_LABELS, STOPS, GAP, PATH]) if (map.getLayer(layer)) map.removeLayer(layer);
      for (const source of [POINT_SOURCE, PATH_SOURCE]) if (map.getSource(source)) map.removeSource(source);
    };
  }, [map]);

  useEffect(() => {
    const path = map.getSource<GeoJSONSource>(PATH_SOURCE);
    const points = map.getSource<GeoJSONSource>(POINT_SOURCE);
    if (!path || !points) return;
    if (!track || track.t.length === 0) {
      void path.setData(empty());
      void points.setData(empty());
      return;
    }
    void path.setData(trackPathFeatures(track, project));
    void points.setData(trackPointFeatures(track, project));
    const bounds = new LngLatBounds();
    for (let i = 0; i < track.t.length; i++) bounds.extend(project(track.lon[i] as number, track.lat[i] as number));
    map.fitBounds(bounds, { padding: 48, maxZoom: 16, duration: 0 });
  }, [map, project, track]);

  return null;
}
