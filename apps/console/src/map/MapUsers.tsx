import type { GpsRecord } from '@intercom/contract';
import type { ExpressionSpecification, Map as MapLibreMap, MapLayerMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { liveHub } from '../shared/hub/liveHub';
import type { HubMessage, LiveSnapshot } from '../shared/hub/liveSnapshot';
import { FONT_STACK } from './basemapStyle';
import { useMapHandle } from './mapContext';
import { stateColourExpression } from './stateColourExpression';
import { userBatch } from './userBatch';
import { UserPointIndex, type UserPoint } from './UserPointIndex';
import { UserSourceFeeder } from './UserSourceFeeder';
import { sourceTilesSettled } from './sourceTilesSettled';
import { USERS_TILE_LAYER, USERS_TILE_MAX_ZOOM } from './UserTileIndex';
import { UsersTileWorker } from './UsersTileWorker';
import { recordState } from './recordState';
import { sosUserIds } from './userMapState';

export const USERS_SOURCE = 'users';
const CIRCLES = 'users-circles';
const CLUSTER_COUNT = 'users-cluster-count';
const LABELS = 'users-labels';
/** True for a cluster of users, false for one user. */
const CLUSTER: ExpressionSpecification = ['has', 'point_count'];

export interface MapUsersProps {
  onSelect: (userId: number) => void;
}

/** What the map's container element offers browser tests and the benchmark about the users drawn. */
export interface MapUsersProbe {
  /** The user as the users' tiles hold it (undefined: not on the map). */
  user(userId: number): Promise<{ lon: number; lat: number; name: string; state: string } | undefined>;
  /** Users the tiles hold after the last batch. */
  held(): number;
  /**
   * Calls `listener` each time a batch reached the tile worker and the users' tiles were reloaded,
   * with when the batch was sent (ms since the epoch); returns the unsubscription.
   */
  onRefreshed(listener: (sentAt: number) => void): () => void;
}

/** The users' vector source (tiles of the tile worker at `tiles`) and its three layers. */
function addUsersLayers(map: MapLibreMap, tiles: string): void {
  map.addSource(USERS_SOURCE, { type: 'vector', tiles: [tiles], maxzoom: USERS_TILE_MAX_ZOOM });
  // Clusters and users are one circle layer: one shader program and one draw per tile instead of
  // two (on a software renderer the opening waits for each program to compile).
  map.addLayer({
    id: CIRCLES,
    type: 'circle',
    source: USERS_SOURCE,
    'source-layer': USERS_TILE_LAYER,
    paint: {
      'circle-color': ['case', CLUSTER, '#1677ff', stateColourExpression()],
      'circle-radius': [
        'case',
        CLUSTER,
        ['step', ['get', 'point_count'], 14, 100, 18, 1000, 24],
        ['match', ['get', 'state'], 'sos', 9, 7],
      ],
      // A stale fix is hollow: the last known place, not where the user is now.
      'circle-stroke-color': ['case', CLUSTER, '#ffffff', ['match', ['get', 'state'], 'stale', '#faad14', '#ffffff']],
      'circle-stroke-width': 2,
      'circle-opacity': ['case', CLUSTER, 0.8, ['match', ['get', 'state'], 'stale', 0.25, 1]],
    },
  });
  map.addLayer({
    id: CLUSTER_COUNT,
    type: 'symbol',
    source: USERS_SOURCE,
    'source-layer': USERS_TILE_LAYER,
    filter: CLUSTER,
    layout: {
      'text-field': ['get', 'point_count_abbreviated'],
      'text-font': [FONT_STACK],
      'text-size': 12,
      // A count belongs on its circle whatever else is near: never hidden by a collision.
      'text-allow-overlap': true,
      'text-ignore-placement': true,
    },
    paint: { 'text-color': '#ffffff' },
  });
  map.addLayer({
    id: LABELS,
    type: 'symbol',
    source: USERS_SOURCE,
    'source-layer': USERS_TILE_LAYER,
    filter: ['!', CLUSTER],
    minzoom: 13,
    layout: {
      'text-field': ['get', 'name'],
      'text-font': [FONT_STACK],
      'text-size': 12,
      'text-offset': [0, 1.2],
      'text-anchor': 'top',
    },
    paint: { 'text-color': '#262626', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
  });
}

/**
 * Every user with a position, as one clustered vector tile source (traccar-web MapPositions draws
 * a GeoJSON source the same way): circles coloured by state, counts on clusters at low zoom, names
 * at high zoom. The tiles are cut in a worker of our own (UsersTileWorker), which the hub's
 * deltas reach as batches of typed arrays (UserSourceFeeder); the page's main thread never turns
 * 50,000 users into GeoJSON for MapLibre's worker (docs/decisions.md). Renders nothing.
 */
export function MapUsers({ onSelect }: MapUsersProps) {
  const { map, project } = useMapHandle();
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });

  useEffect(() => {
    const index = new UserPointIndex();
    const tiles = new UsersTileWorker();
    let stopped = false;
    // The source goes in once the tile worker listens for MapLibre's workers (a tile asked before
    // that would go unanswered).
    void tiles.ready.then(() => {
      if (!stopped) addUsersLayers(map, tiles.tiles);
    });
    let held = 0;
    const refreshed = new Set<(sentAt: number) => void>();
    const sentNames = new Map<number, string>();
    const send = async (upsert: readonly number[], remove: readonly number[], replace: boolean) => {
      const sentAt = Date.now();
      held = await tiles.apply(userBatch((id) => index.get(id), upsert, remove, replace, sentNames));
      // Before the source is added (the tile worker starting) its first tiles will hold the batch.
      if (map.getSource(USERS_SOURCE)) map.refreshTiles(USERS_SOURCE);
      for (const listener of refreshed) listener(sentAt);
    };
    const feeder = new UserSourceFeeder({ send, tilesSettled: () => sourceTilesSettled(map, USERS_SOURCE) }, index);
    const probe: MapUsersProbe = {
      user: (userId) => tiles.user(userId),
      held: () => held,
      onRefreshed: (listener) => {
        refreshed.add(listener);
        return () => refreshed.delete(listener);
      },
    };
    const container = map.getContainer() as HTMLElement & { mapUsers?: MapUsersProbe };
    container.mapUsers = probe;

    let sos = new Set<number>();
    const pointOf = (record: GpsRecord): UserPoint => {
      const [lon, lat] = project(record.lon, record.lat);
      return { lon, lat, name: record.UserName, state: recordState(record, sos) };
    };
    let framed = false;
    const replaceAll = (snapshot: LiveSnapshot) => {
      const points: [number, UserPoint][] = [];
      for (const record of snapshot.positions.values()) points.push([record.U_ID, pointOf(record)]);
      index.replace(points);
      feeder.replaceAll();
      // The first users to arrive frame the view (a dispatcher's fleet, not the whole world).
      const bounds = index.bounds();
      if (framed || !bounds) return;
      framed = true;
      map.fitBounds(bounds, { padding: 64, maxZoom: 12, duration: 0 });
    };
    const applyChanges = (snapshot: LiveSnapshot, ids: Iterable<number>) => {
      const changes: [number, UserPoint | undefined][] = [];
      for (const id of ids) {
        const record = snapshot.positions.get(id);
        changes.push([id, record ? pointOf(record) : undefined]);
      }
      feeder.apply(index.apply(changes));
    };

    const onMessages = (messages: readonly HubMessage[]) => {
      const snapshot = liveHub.store.getSnapshot();
      const nextSos = sosUserIds(snapshot.alarms.values());
      const touched = new Set<number>();
      for (const id of nextSos) if (!sos.has(id)) touched.add(id);
      for (const id of sos) if (!nextSos.has(id)) touched.add(id);
      sos = nextSos;
      if (messages.some((message) => message.type === 'GPSArray')) {
        replaceAll(snapshot);
        return;
      }
      for (const message of messages) {
        if (message.type === 'GPS') for (const record of message.data) touched.add(record.U_ID);
      }
      if (touched.size > 0) applyChanges(snapshot, touched);
    };
    const unsubscribe = liveHub.store.subscribeMessages(onMessages);

    const zoomIntoCluster = async (clusterId: number, center: [number, number]) => {
      const zoom = await tiles.expansionZoom(clusterId);
      map.easeTo({ center, zoom });
    };
    // A user is selected; a cluster is zoomed into (its features carry ids too: cluster first).
    const onClick = (event: MapLayerMouseEvent) => {
      const feature = event.features?.[0];
      if (!feature) return;
      const clusterId = feature.properties.cluster_id as number | undefined;
      if (clusterId === undefined) {
        if (typeof feature.id === 'number') select.current(feature.id);
        return;
      }
      if (feature.geometry.type !== 'Point') return;
      // A cluster can dissolve under the click (a diff arrived first): then there is nothing to zoom to.
      void zoomIntoCluster(clusterId, feature.geometry.coordinates as [number, number]).catch(() => undefined);
    };
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const plain = () => (map.getCanvas().style.cursor = '');
    map.on('click', CIRCLES, onClick);
    map.on('mouseenter', CIRCLES, pointer);
    map.on('mouseleave', CIRCLES, plain);

    return () => {
      stopped = true;
      unsubscribe();
      feeder.stop();
      if (container.mapUsers === probe) delete container.mapUsers;
      map.off('click', CIRCLES, onClick);
      map.off('mouseenter', CIRCLES, pointer);
      map.off('mouseleave', CIRCLES, plain);
      for (const layer of [LABELS, CLUSTER_COUNT, CIRCLES]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(USERS_SOURCE)) map.removeSource(USERS_SOURCE);
      tiles.terminate();
    };
  }, [map, project]);

  return null;
}
