import { LngLatBounds, type Map as MapLibreMap } from 'maplibre-gl';
import { useEffect } from 'react';
import { coverPadding, NO_PADDING } from '../../map/coverPadding';
import { useMapHandle } from '../../map/mapContext';
import { usersBoundsOf } from '../../map/users/usersBounds';
import type { PanelCover } from './incidentDraft';

/** Below this zoom the view shows continents, not the users' streets: the users are framed instead. */
const WORLD_ZOOM = 4;

/**
 * The users are framed beside the panel when the view shows all of them (the fleet the live map
 * opened on: with the panel some would be under it), none of them, or the world; a view zoomed
 * into a part of the fleet is the dispatcher's choice and stays.
 */
function framesUsers(map: MapLibreMap, users: LngLatBounds): boolean {
  const view = map.getBounds();
  const all = view.contains(users.getSouthWest()) && view.contains(users.getNorthEast());
  const none =
    users.getWest() > view.getEast() ||
    users.getEast() < view.getWest() ||
    users.getSouth() > view.getNorth() ||
    users.getNorth() < view.getSouth();
  return all || none || map.getZoom() < WORLD_ZOOM;
}

/**
 * While the incident panel is open, the map is padded by what it covers, so that what the
 * dispatcher looks at, the zone drawn and its handles stay beside it, framed on the scope's users
 * as framesUsers says. The padding goes when the panel closes. Renders nothing.
 */
export function FrameBesidePanel({ cover }: { cover: PanelCover | undefined }) {
  const { map } = useMapHandle();
  const side = cover?.side;
  const size = cover?.size;

  useEffect(() => {
    if (!side || size === undefined) return;
    const padding = coverPadding(
      map.getContainer().getBoundingClientRect(),
      { side, size },
      {
        width: window.innerWidth,
        height: window.innerHeight,
      },
    );
    const known = usersBoundsOf(map);
    const users = known && new LngLatBounds(known);
    // Read before the padding moves the view.
    const frame = users !== undefined && framesUsers(map, users);
    map.easeTo({ padding, duration: 0 });
    if (frame) map.fitBounds(users, { padding: 48, maxZoom: 15, duration: 0 });
    return () => {
      // Not on a map being removed with the page (its canvas is gone first).
      if (map.getCanvasContainer().isConnected) map.easeTo({ padding: NO_PADDING, duration: 0 });
    };
  }, [map, side, size]);

  return null;
}
