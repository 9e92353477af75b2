import { Marker, type GeoJSONSource, type Map as MapLibreMap, type MapLayerMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useMapHandle } from '../mapContext';
import { CLUSTER_COUNT, USERS_SOURCE } from './MapUsers';
import styles from './MapUserColumns.module.css';
import { stateColourExpression } from '../stateColourExpression';
import { DrawnColumns, type ColumnUser } from './userColumns';
import { USERS_TILE_LAYER } from './UserTileIndex';

const SOURCE = 'user-columns';
export const USER_COLUMNS = 'user-columns';
/** Below this zoom (the globe seen whole) the users stay circles: columns would stand a continent tall. */
const COLUMNS_MIN_ZOOM = 3;
/** SOS rings drawn at most: each is an element the browser animates. */
const MAX_SOS_RINGS = 20;

/** The users and clusters the users' tiles hold in view, once each, sorted (the same view gives the same list). */
function usersInView(map: MapLibreMap): ColumnUser[] {
  const found = new Map<string, ColumnUser>();
  for (const feature of map.querySourceFeatures(USERS_SOURCE, { sourceLayer: USERS_TILE_LAYER })) {
    if (feature.geometry.type !== 'Point') continue;
    const [lon, lat] = feature.geometry.coordinates as [number, number];
    const clusterId = feature.properties.cluster_id as number | undefined;
    const cluster = clusterId !== undefined;
    const id = cluster ? clusterId : feature.id;
    if (typeof id !== 'number') continue;
    const count = cluster ? Number(feature.properties.point_count) : 1;
    const state = String(feature.properties.state ?? '');
    found.set(`${cluster ? 'c' : 'u'}${id}`, { id, cluster, lon, lat, state, count });
  }
  return [...found.values()].sort((a, b) => Number(a.cluster) - Number(b.cluster) || a.id - b.id);
}

/** Keeps one pulsing ring (a DOM marker) on each SOS user in `users`, none elsewhere. */
function syncSosRings(map: MapLibreMap, rings: Map<number, Marker>, users: readonly ColumnUser[]): void {
  const sos = users.filter((user) => !user.cluster && user.state === 'sos').slice(0, MAX_SOS_RINGS);
  const wanted = new Set(sos.map((user) => user.id));
  for (const [id, ring] of rings)
    if (!wanted.has(id)) {
      ring.remove();
      rings.delete(id);
    }
  for (const user of sos) {
    const ring = rings.get(user.id);
    if (ring) ring.setLngLat([user.lon, user.lat]);
    else {
      const element = document.createElement('div');
      element.className = styles.ring ?? '';
      element.dataset.testid = 'map-sos-ring';
      element.dataset.userId = String(user.id);
      rings.set(user.id, new Marker({ element, pitchAlignment: 'map' }).setLngLat([user.lon, user.lat]).addTo(map));
    }
  }
}

/**
 * The 3D map's users as columns (6-sided fill extrusions) coloured by state, clusters blue and taller
 * the more they hold, over the users' circles, and a ring pulsing on each SOS user. The columns follow
 * the users' tiles: only those that came, went, moved or changed are sent to the map (DrawnColumns:
 * every one again only when the zoom changed), a quiet map is not redrawn, and the rings are animated
 * by the browser, not by redrawing the map. Renders nothing.
 */
export function MapUserColumns({ onSelect }: { onSelect: (userId: number) => void }) {
  const { map } = useMapHandle();
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });

  useEffect(() => {
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: USER_COLUMNS,
      type: 'fill-extrusion',
      source: SOURCE,
      minzoom: COLUMNS_MIN_ZOOM,
      paint: {
        'fill-extrusion-color': ['case', ['get', 'cluster'], '#1677ff', stateColourExpression()],
        'fill-extrusion-height': ['get', 'height'],
        'fill-extrusion-opacity': 0.9,
      },
    });
    const rings = new Map<number, Marker>();
    const drawn = new DrawnColumns();
    let placed = false;
    const update = () => {
      // Under the cluster counts and names (MapUsers adds them once its tile worker runs).
      if (!placed && map.getLayer(CLUSTER_COUNT)) {
        map.moveLayer(USER_COLUMNS, CLUSTER_COUNT);
        placed = true;
      }
      if (!map.getSource(USERS_SOURCE)) return;
      const users = usersInView(map);
      syncSosRings(map, rings, users);
      const zoom = Math.round(map.getZoom() * 4) / 4;
      const change = drawn.next(users, zoom);
      const source = map.getSource(SOURCE) as GeoJSONSource;
      if (!change) return;
      if ('all' in change) void source.setData(change.all);
      else void source.updateData(change.diff);
    };
    // 'idle' comes once the map has drawn what changed (a batch of users, a move), never while it stands still.
    map.on('idle', update);

    const onClick = (event: MapLayerMouseEvent) => {
      const properties = event.features?.[0]?.properties;
      if (!properties) return;
      if (properties.cluster === true) map.easeTo({ center: event.lngLat, zoom: map.getZoom() + 2 });
      else select.current(Number(properties.id));
    };
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const plain = () => (map.getCanvas().style.cursor = '');
    map.on('click', USER_COLUMNS, onClick);
    map.on('mouseenter', USER_COLUMNS, pointer);
    map.on('mouseleave', USER_COLUMNS, plain);
    return () => {
      map.off('idle', update);
      map.off('click', USER_COLUMNS, onClick);
      map.off('mouseenter', USER_COLUMNS, pointer);
      map.off('mouseleave', USER_COLUMNS, plain);
      for (const ring of rings.values()) ring.remove();
      if (map.getLayer(USER_COLUMNS)) map.removeLayer(USER_COLUMNS);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  return null;
}
