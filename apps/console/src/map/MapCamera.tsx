import { useEffect, type RefObject } from 'react';
import { useMapHandle } from './mapContext';
import { offsetBeside } from './offsetBeside';

export interface CameraTarget {
  lon: number;
  lat: number;
  /** Changes each time the dispatcher asks to go there (a click on the same user flies again). */
  request: number;
}

export interface MapCameraProps {
  target: CameraTarget | undefined;
  follow: boolean;
  /** Something drawn over the map (the selected user's card): the target is shown beside it, not under it. */
  cover?: RefObject<HTMLElement | null>;
}

/** Street level: where a picked user is shown. */
const FLY_ZOOM = 15;

/**
 * Moves the camera: flies to the target on each new request and, while following, keeps it
 * in view as it moves, beside `cover` if there is one. Renders nothing.
 */
export function MapCamera({ target, follow, cover }: MapCameraProps) {
  const { map, project } = useMapHandle();
  const request = target?.request;
  const lon = target?.lon;
  const lat = target?.lat;

  useEffect(() => {
    if (request === undefined || lon === undefined || lat === undefined) return;
    const offset = offsetBeside(map.getContainer().getBoundingClientRect(), cover?.current?.getBoundingClientRect());
    map.flyTo({ center: project(lon, lat), zoom: Math.max(map.getZoom(), FLY_ZOOM), offset, essential: true });
    // Only a new request flies; a move of the same target is the follow effect's business.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, request]);

  useEffect(() => {
    if (!follow || lon === undefined || lat === undefined) return;
    const offset = offsetBeside(map.getContainer().getBoundingClientRect(), cover?.current?.getBoundingClientRect());
    map.easeTo({ center: project(lon, lat), offset, duration: 500 });
  }, [map, project, follow, lon, lat, cover]);

  return null;
}
