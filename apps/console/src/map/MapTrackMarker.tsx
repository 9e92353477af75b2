import { Marker } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { useMapHandle } from './mapContext';

export interface TrackMarkerPosition {
  lon: number;
  lat: number;
}

/** While following, the camera moves only when the marker leaves this central share of the view. */
const FOLLOW_BOX = 0.6;

function markerElement(): HTMLDivElement {
  const element = document.createElement('div');
  element.dataset.testid = 'track-marker';
  Object.assign(element.style, {
    width: '14px',
    height: '14px',
    borderRadius: '50%',
    background: '#1677ff',
    border: '3px solid #ffffff',
    boxShadow: '0 0 0 6px rgba(22, 119, 255, 0.25)',
    pointerEvents: 'none',
  });
  return element;
}

/**
 * The replay's moving marker. One DOM marker, unlike the users (thousands, so a GeoJSON layer):
 * moving it is a CSS transform, so a frame of the replay costs neither a worker round trip nor a
 * redraw of the whole map. While following, the camera jumps only when the marker nears the
 * edge of the view, for the same reason. Renders nothing.
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
  const [marker] = useState(() => new Marker({ element: markerElement() }));
  const dragRef = useRef(onDrag);
  useEffect(() => {
    dragRef.current = onDrag;
  });

  useEffect(() => {
    const drag = () => dragRef.current();
    map.on('dragstart', drag);
    return () => {
      map.off('dragstart', drag);
      marker.remove();
    };
  }, [map, marker]);

  const lon = position?.lon;
  const lat = position?.lat;
  useEffect(() => {
    if (lon === undefined || lat === undefined) {
      marker.remove();
      return;
    }
    const at = project(lon, lat);
    // Sizes are read before the marker moves: a read after a write would force a layout each frame.
    const { clientWidth: width, clientHeight: height } = map.getContainer();
    const point = map.project(at);
    marker.setLngLat(at);
    if (!marker.getElement().isConnected) marker.addTo(map);
    if (!follow) return;
    const margin = (1 - FOLLOW_BOX) / 2;
    const inside =
      point.x > width * margin &&
      point.x < width * (1 - margin) &&
      point.y > height * margin &&
      point.y < height * (1 - margin);
    if (!inside) map.jumpTo({ center: at });
  }, [map, marker, project, lon, lat, follow]);

  return null;
}
