import type {
  AddLayerObject,
  ExpressionSpecification,
  FilterSpecification,
  Map as MapLibreMap,
  MapLayerMouseEvent,
} from 'maplibre-gl';
import { Alert } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { liveHub } from '../../shared/hub/liveHub';
import { FONT_STACK } from '../basemapStyle';
import { useMapHandle } from '../mapContext';
import { stateColourExpression } from '../stateColourExpression';
import { isDrawing, SHAPE_DRAW_PREFIX } from '../shapeDrawFeatures';
import { rememberUsersBounds } from './usersBounds';
import { sourceTilesSettled } from './sourceTilesSettled';
import { USERS_TILE_LAYER, USERS_TILE_MAX_ZOOM } from './UserTileIndex';
import { takeUsersTileWorker, type FedBatch } from './UsersTileWorker';

export const USERS_SOURCE = 'users';
const CIRCLES = 'users-circles';
export const CLUSTER_COUNT = 'users-cluster-count';
const LABELS = 'users-labels';
/** True for a cluster of users, false for one user. */
const CLUSTER: ExpressionSpecification = ['has', 'point_count'];

export interface MapUsersProps {
  /** Left out: the users are shown only (a map to draw on), a click on them does nothing. */
  onSelect?: (userId: number) => void;
  /** The selected user, whose name MapSelectedUser draws: the users' labels leave it out. */
  selectedId?: number | undefined;
  /**
   * The first users to arrive frame the view (default). False where another layer frames it (the
   * fence editor frames the fence's own users); their bounds are kept for it (usersBoundsOf).
   */
  frame?: boolean;
}

/** The users' labels: every user on its own, but the selected one (labelled above, larger). */
function labelFilter(selectedId: number | undefined): FilterSpecification {
  return selectedId === undefined ? ['!', CLUSTER] : ['all', ['!', CLUSTER], ['!=', ['id'], selectedId]];
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
function addUsersLayers(map: MapLibreMap, tiles: string, selectedId: number | undefined): void {
  map.addSource(USERS_SOURCE, { type: 'vector', tiles: [tiles], maxzoom: USERS_TILE_MAX_ZOOM });
  // Under a shape being drawn, added before them: its handles must stay visible to be grabbed.
  const before = map.getStyle().layers.find((layer) => layer.id.startsWith(SHAPE_DRAW_PREFIX))?.id;
  const addLayer = (layer: AddLayerObject) => map.addLayer(layer, before);
  // Clusters and users are one circle layer: one shader program and one draw per tile instead of
  // two (on a software renderer the opening waits for each program to compile).
  addLayer({
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
  addLayer({
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
  addLayer({
    id: LABELS,
    type: 'symbol',
    source: USERS_SOURCE,
    'source-layer': USERS_TILE_LAYER,
    filter: labelFilter(selectedId),
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
 * at high zoom. The tiles are cut in a worker of our own (UsersTileWorker), which the hub worker's
 * batches of typed arrays reach through the page (UserFeed); the page's main thread never handles
 * the 50,000 users one by one (docs/decisions.md). Renders nothing, or a warning
 * when its tile worker cannot run.
 */
export function MapUsers({ onSelect, selectedId, frame = true }: MapUsersProps) {
  const { t } = useTranslation();
  const { map, gcj02, cameraFromUrl } = useMapHandle();
  const [broken, setBroken] = useState(false);
  const select = useRef(onSelect);
  const selected = useRef(selectedId);
  const frames = useRef(frame);
  useEffect(() => {
    select.current = onSelect;
    selected.current = selectedId;
    frames.current = frame;
  });
  useEffect(() => {
    if (map.getLayer(LABELS)) map.setFilter(LABELS, labelFilter(selectedId));
  }, [map, selectedId]);

  useEffect(() => {
    const tiles = takeUsersTileWorker();
    let stopped = false;
    // The source goes in once the tile worker listens for MapLibre's workers (a tile asked before
    // that would go unanswered).
    void tiles.ready.then(() => {
      if (!stopped) addUsersLayers(map, tiles.tiles, selected.current);
    });
    void tiles.broken.then(() => {
      if (!stopped) setBroken(true);
    });
    let held = 0;
    const refreshed = new Set<(sentAt: number) => void>();
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

    // A camera the URL gave (a shared or bookmarked view) stays where it is.
    let framed = cameraFromUrl;
    // The hub worker posts the users that changed as batches straight to the tile worker (never
    // through this thread), each once the map said the last was drawn.
    const channel = new MessageChannel();
    const feed = liveHub.openFeed(gcj02, channel.port1);
    const draw = async ({ batch, size, bounds, sentAt, changed }: FedBatch) => {
      held = size;
      // Only the tiles the batch changed are cut again. Before the source is added (the tile worker
      // starting) its first tiles will hold the batch.
      if (map.getSource(USERS_SOURCE)) {
        if (changed === 'all') map.refreshTiles(USERS_SOURCE);
        else if (changed.length > 0) map.refreshTiles(USERS_SOURCE, changed);
      }
      for (const listener of refreshed) listener(sentAt);
      if (bounds) rememberUsersBounds(map, bounds);
      // The first users to arrive frame the view (a dispatcher's fleet, not the whole world).
      if (!framed && bounds && frames.current) {
        framed = true;
        map.fitBounds(bounds, { padding: 64, maxZoom: 12, duration: 0, bearing: map.getBearing() });
      }
      await sourceTilesSettled(map, USERS_SOURCE);
      // A map gone under its batch says nothing: its feed is closed.
      if (!stopped) feed.drawn(batch);
    };
    tiles.feed(channel.port2, (fed) => void draw(fed));
    // The worker reports the changed tiles of the zoom shown. After a move the next batch refreshes
    // every tile in view: tiles MapLibre kept while out of view may be older than the last batches.
    const watch = () => {
      // A pitched map shows tiles of lower zooms towards the horizon, and a view across the
      // antimeridian has bounds past ±180: then every batch refreshes every tile.
      const bounds = map.getBounds();
      const sides: [number, number, number, number] = [
        bounds.getWest(),
        bounds.getSouth(),
        bounds.getEast(),
        bounds.getNorth(),
      ];
      const flat = map.getPitch() === 0 && sides[0] >= -180 && sides[2] <= 180;
      tiles.watch(flat ? map.getZoom() : undefined, flat ? sides : undefined);
    };
    watch();
    map.on('moveend', watch);

    const zoomIntoCluster = async (clusterId: number, center: [number, number]) => {
      const zoom = await tiles.expansionZoom(clusterId);
      map.easeTo({ center, zoom });
    };
    // A user is selected; a cluster is zoomed into (its features carry ids too: cluster first).
    const onClick = (event: MapLayerMouseEvent) => {
      const feature = event.features?.[0];
      // A click while a shape is drawn places its points (ShapeDraw), it does not pick a user.
      if (!feature || !select.current || isDrawing(map)) return;
      const clusterId = feature.properties.cluster_id as number | undefined;
      if (clusterId === undefined) {
        if (typeof feature.id === 'number') select.current(feature.id);
        return;
      }
      if (feature.geometry.type !== 'Point') return;
      // A cluster can dissolve under the click (a diff arrived first): then there is nothing to zoom to.
      void zoomIntoCluster(clusterId, feature.geometry.coordinates as [number, number]).catch(() => undefined);
    };
    const pointer = () => {
      if (select.current) map.getCanvas().style.cursor = 'pointer';
    };
    const plain = () => {
      if (select.current) map.getCanvas().style.cursor = '';
    };
    map.on('click', CIRCLES, onClick);
    map.on('mouseenter', CIRCLES, pointer);
    map.on('mouseleave', CIRCLES, plain);

    return () => {
      stopped = true;
      feed.close();
      if (container.mapUsers === probe) delete container.mapUsers;
      map.off('moveend', watch);
      map.off('click', CIRCLES, onClick);
      map.off('mouseenter', CIRCLES, pointer);
      map.off('mouseleave', CIRCLES, plain);
      for (const layer of [LABELS, CLUSTER_COUNT, CIRCLES]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(USERS_SOURCE)) map.removeSource(USERS_SOURCE);
      tiles.terminate();
    };
  }, [map, gcj02, cameraFromUrl]);

  if (!broken) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={t('map.users_unavailable')}
      style={{ position: 'absolute', left: 16, right: 16, bottom: 84 }}
      data-testid="map-users-unavailable"
    />
  );
}
