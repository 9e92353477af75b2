import type { GpsRecord } from '@intercom/contract';
import type { GeoJSONSource, MapLayerMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { liveHub } from '../shared/hub/liveHub';
import type { HubMessage, LiveSnapshot } from '../shared/hub/liveSnapshot';
import { FONT_STACK } from './basemapStyle';
import { useMapHandle } from './mapContext';
import { stateColourExpression } from './stateColourExpression';
import { UserFeatureIndex, type UserPoint } from './userFeatureDiff';
import { UserSourceFeeder } from './UserSourceFeeder';
import { sourceTilesSettled } from './sourceTilesSettled';
import { recordState } from './recordState';
import { sosUserIds } from './userMapState';

export const USERS_SOURCE = 'users';
const CLUSTERS = 'users-clusters';
const CLUSTER_COUNT = 'users-cluster-count';
const POINTS = 'users-points';
const LABELS = 'users-labels';

export interface MapUsersProps {
  onSelect: (userId: number) => void;
}

/**
 * Every user with a position, as one clustered GeoJSON source (traccar-web MapPositions): circles
 * coloured by state, counts on clusters at low zoom, names at high zoom. The hub's deltas reach the
 * source as `updateData` diffs, and a snapshot as `updateData` additions of a few thousand users
 * each (UserSourceFeeder).
 * Renders nothing.
 */
export function MapUsers({ onSelect }: MapUsersProps) {
  const { map, project } = useMapHandle();
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });

  useEffect(() => {
    const index = new UserFeatureIndex();
    map.addSource(USERS_SOURCE, {
      type: 'geojson',
      data: index.collection(),
      cluster: true,
      clusterMaxZoom: 11,
      clusterRadius: 45,
    });
    map.addLayer({
      id: CLUSTERS,
      type: 'circle',
      source: USERS_SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': '#1677ff',
        'circle-opacity': 0.8,
        'circle-radius': ['step', ['get', 'point_count'], 14, 100, 18, 1000, 24],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    });
    map.addLayer({
      id: CLUSTER_COUNT,
      type: 'symbol',
      source: USERS_SOURCE,
      filter: ['has', 'point_count'],
      layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-font': [FONT_STACK], 'text-size': 12 },
      paint: { 'text-color': '#ffffff' },
    });
    map.addLayer({
      id: POINTS,
      type: 'circle',
      source: USERS_SOURCE,
      filter: ['!', ['has', 'point_count']],
      paint: {
        'circle-color': stateColourExpression(),
        'circle-radius': ['match', ['get', 'state'], 'sos', 9, 7],
        // A stale fix is hollow: the last known place, not where the user is now.
        'circle-stroke-color': ['match', ['get', 'state'], 'stale', '#faad14', '#ffffff'],
        'circle-stroke-width': 2,
        'circle-opacity': ['match', ['get', 'state'], 'stale', 0.25, 1],
      },
    });
    map.addLayer({
      id: LABELS,
      type: 'symbol',
      source: USERS_SOURCE,
      filter: ['!', ['has', 'point_count']],
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
    const source = map.getSource<GeoJSONSource>(USERS_SOURCE)!;
    const feeder = new UserSourceFeeder(
      { updateData: (diff) => source.updateData(diff), tilesSettled: () => sourceTilesSettled(map, USERS_SOURCE) },
      index,
    );

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
      feeder.apply('reset');
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

    const onPoint = (event: MapLayerMouseEvent) => {
      const id = event.features?.[0]?.id;
      if (typeof id === 'number') select.current(id);
    };
    const zoomIntoCluster = async (event: MapLayerMouseEvent) => {
      const feature = event.features?.[0];
      const clusterId = feature?.properties.cluster_id as number | undefined;
      if (!feature || clusterId === undefined || feature.geometry.type !== 'Point') return;
      const zoom = await source.getClusterExpansionZoom(clusterId);
      map.easeTo({ center: feature.geometry.coordinates as [number, number], zoom });
    };
    // A cluster can dissolve under the click (a diff arrived first): then there is nothing to zoom to.
    const onCluster = (event: MapLayerMouseEvent) => void zoomIntoCluster(event).catch(() => undefined);
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const plain = () => (map.getCanvas().style.cursor = '');
    map.on('click', POINTS, onPoint);
    map.on('click', CLUSTERS, onCluster);
    for (const layer of [POINTS, CLUSTERS]) {
      map.on('mouseenter', layer, pointer);
      map.on('mouseleave', layer, plain);
    }

    return () => {
      unsubscribe();
      feeder.stop();
      map.off('click', POINTS, onPoint);
      map.off('click', CLUSTERS, onCluster);
      for (const layer of [POINTS, CLUSTERS]) {
        map.off('mouseenter', layer, pointer);
        map.off('mouseleave', layer, plain);
      }
      for (const layer of [LABELS, POINTS, CLUSTER_COUNT, CLUSTERS]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(USERS_SOURCE)) map.removeSource(USERS_SOURCE);
    };
  }, [map, project]);

  return null;
}
