import type { GpsRecord } from '@intercom/contract';
import { useEffect, useRef, useState } from 'react';
import { useMapHandle } from '../../map/mapContext';
import type { MapFence } from '../../map/MapFences';
import { onUsersBounds, usersBoundsOf } from '../../map/users/usersBounds';
import { fenceScopeFrame } from './fenceScopeFrame';

export interface FrameFenceScopeProps {
  /** The scope's users (undefined: none chosen, the enterprise's users frame the view). */
  positions: readonly GpsRecord[] | undefined;
  /** Changes with the chosen users and departments: a new scope is framed again. */
  scope: string;
  /** The scope's other fences: the view when no user of the scope has a position. */
  fences: readonly MapFence[];
  /** A shape is drawn: the camera stays with it. */
  skip: boolean;
}

/** At street level at most: one user is not shown from a doorstep; clear of the map's controls. */
const FRAME = { padding: 64, maxZoom: 15, duration: 0 } as const;

/**
 * Until a shape is drawn, frames what fenceScopeFrame says. Each scope is framed once by its users:
 * their moves do not pull the camera while one looks. Renders nothing.
 */
export function FrameFenceScope({ positions, scope, fences, skip }: FrameFenceScopeProps) {
  const { map, project } = useMapHandle();
  const [enterprise, setEnterprise] = useState(() => usersBoundsOf(map));
  const framed = useRef('');

  useEffect(() => onUsersBounds(map, () => setEnterprise(usersBoundsOf(map))), [map]);

  useEffect(() => {
    if (skip || framed.current === `${scope}|users`) return;
    const frame = fenceScopeFrame({ positions, enterprise, fences, project });
    if (!frame || framed.current === `${scope}|${frame.kind}`) return;
    framed.current = `${scope}|${frame.kind}`;
    map.fitBounds(frame.bounds, FRAME);
  }, [map, project, positions, scope, enterprise, fences, skip]);

  return null;
}
