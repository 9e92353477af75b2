import { useEffect } from 'react';
import { useMapHandle } from './mapContext';

export interface CameraTarget {
  lon: number;
  lat: number;
  /** Changes each time the dispatcher asks to go there (a click on the same user flies again). */
  request: number;
}

/** Street level: where a picked user is shown. */
const FLY_ZOOM = 15;

/**
 * Moves the camera: flies to the target on each new request and, while following, keeps it
 * centred as it moves. Renders nothing.
 */
export function MapCamera({ target, follow }: { target: CameraTarget | undefined; follow: boolean }) {
  const { map, project } = useMapHandle();
  const request = target?.request;
  const lon = target?.lon;
  const lat = target?.lat;

  useEffect(() => {
    if (request === undefined || lon === undefined || lat === undefined) return;
    map.flyTo({ center: project(lon, lat), zoom: Math.max(map.getZoom(), FLY_ZOOM), essential: true });
    // Only a new request flies; a move of the same target is the follow effect's business.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, request]);

  useEffect(() => {
    if (!follow || lon === undefined || lat === undefined) return;
    map.easeTo({ center: project(lon, lat), duration: 500 });
  }, [map, project, follow, lon, lat]);

  return null;
}
