import type { Map as MapLibreMap } from 'maplibre-gl';
import { createContext, useContext } from 'react';

export interface MapHandle {
  map: MapLibreMap;
  /** WGS-84 to the basemap's datum (GCJ-02 for AMap); every point passes here before a source. */
  project: (lon: number, lat: number) => [number, number];
  /** The basemap is in GCJ-02 (`project` shifts): the hub worker shifts the users' points too. */
  gcj02: boolean;
  /** The camera came from the URL's hash (MapView `hash`): the layers leave it where it is. */
  cameraFromUrl: boolean;
}

export const MapContext = createContext<MapHandle | null>(null);

/** The map of the enclosing MapView; layer components render inside it only once it has loaded. */
export function useMapHandle(): MapHandle {
  const handle = useContext(MapContext);
  if (!handle) throw new Error('useMapHandle outside a loaded MapView');
  return handle;
}
