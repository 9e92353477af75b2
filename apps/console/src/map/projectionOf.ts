import { wgs84ToGcj02, type Basemap } from '@intercom/contract';
import type { MapHandle } from './mapContext';

const identity: MapHandle['project'] = (lon, lat) => [lon, lat];

/** WGS-84 to the basemap's datum: GCJ-02 for AMap tiles, unchanged otherwise. */
export function projectionOf(basemap: Basemap | undefined): MapHandle['project'] {
  return basemap?.gcj02 ? wgs84ToGcj02 : identity;
}
