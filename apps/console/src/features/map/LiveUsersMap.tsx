import type { GpsRecord } from '@intercom/contract';
import { Spin } from 'antd';
import { LOADING_DELAY_MS } from '../../shared/ui/useShownAfter';
import { useMemo, type ReactNode, type RefObject } from 'react';
import { MapCamera, type CameraTarget } from '../../map/MapCamera';
import { MapSelectedUser } from '../../map/MapSelectedUser';
import { MapUsers } from '../../map/users/MapUsers';
import { MapView } from '../../map/MapView';
import { useBasemap } from '../../map/useBasemap';
import type { UserMapState } from '../../shared/hub/userMapState';
import { projectionOf } from '../../map/projectionOf';
import { GeofenceLayer } from '../geofences';

export interface LiveUsersMapProps {
  /** More layers on the map (the incident zones). */
  children?: ReactNode;
  globe?: boolean;
  selected: { record: GpsRecord; state: UserMapState } | undefined;
  target: CameraTarget | undefined;
  follow: boolean;
  onSelect: (userId: number) => void;
  /** The selected user's card over the map: the camera shows the user beside it. */
  cover?: RefObject<HTMLElement | null>;
}

/** The live users over the configured basemap: the layers of the 2D map and of the 3D globe. */
export function LiveUsersMap({
  globe = false,
  selected,
  target,
  follow,
  onSelect,
  cover,
  children,
}: LiveUsersMapProps) {
  const basemap = useBasemap();
  const project = useMemo(() => projectionOf(basemap.data), [basemap.data]);
  if (!basemap.data) return <Spin delay={LOADING_DELAY_MS} style={{ display: 'block', margin: '96px auto' }} />;
  const user = selected && {
    id: selected.record.U_ID,
    lon: selected.record.lon,
    lat: selected.record.lat,
    name: selected.record.UserName,
    state: selected.state,
  };
  return (
    // Both live maps keep their camera in the URL's hash: a dispatcher shares or bookmarks a view.
    <MapView basemap={basemap.data} project={project} globe={globe} hash>
      <GeofenceLayer />
      <MapUsers onSelect={onSelect} selectedId={user?.id} />
      <MapSelectedUser user={user} />
      <MapCamera target={target} follow={follow} cover={cover} />
      {children}
    </MapView>
  );
}
