import { positionAt, type Track } from '@intercom/contract';
import { Spin } from 'antd';
import { LOADING_DELAY_MS } from '../../shared/ui/useShownAfter';
import { useMemo, useSyncExternalStore } from 'react';
import { MapTrack } from '../../map/MapTrack';
import { MapTrackMarker } from '../../map/MapTrackMarker';
import { MapView } from '../../map/MapView';
import { projectionOf } from '../../map/projectionOf';
import { useBasemap } from '../../map/useBasemap';
import { GeofenceLayer } from '../geofences';
import { ReplayIncidentLayer } from '../incidents';
import type { PlaybackClock } from './PlaybackClock';

export interface TraceMapProps {
  track: Track | undefined;
  clock: PlaybackClock;
  follow: boolean;
  onStopClick: (index: number) => void;
  onDrag: () => void;
}

/** The moving marker, re-rendered alone on each frame of the clock. */
function ReplayMarker({ track, clock, follow, onDrag }: Omit<TraceMapProps, 'onStopClick'>) {
  const time = useSyncExternalStore(clock.subscribe, () => clock.get().time);
  const stopped = useSyncExternalStore(clock.subscribe, () => clock.get().state === 'stopped');
  const at = track ? positionAt(track, time) : undefined;
  // Stopped, the whole track stays in view; following starts with the replay or a seek.
  return <MapTrackMarker position={at} follow={follow && !stopped} onDrag={onDrag} />;
}

/** The track and the replay marker over the configured basemap. */
export function TraceMap(props: TraceMapProps) {
  const basemap = useBasemap();
  const project = useMemo(() => projectionOf(basemap.data), [basemap.data]);
  if (!basemap.data) return <Spin delay={LOADING_DELAY_MS} style={{ display: 'block', margin: '96px auto' }} />;
  return (
    <MapView basemap={basemap.data} project={project}>
      <GeofenceLayer />
      <ReplayIncidentLayer from={props.track?.t[0]} to={props.track?.t.at(-1)} />
      <MapTrack track={props.track} onStopClick={props.onStopClick} />
      <ReplayMarker track={props.track} clock={props.clock} follow={props.follow} onDrag={props.onDrag} />
    </MapView>
  );
}
