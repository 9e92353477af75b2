import type { Bounds } from '../../shared/hub/hubWorkerMessages';
import type { MapFence } from '../../map/MapFences';
import type { MapHandle } from '../../map/mapContext';
import { circleRing } from '../../map/shapeGeometry';

export interface FenceScopeFrame {
  /** What is framed: the scope's users, or (none of them placed) the other fences. */
  kind: 'users' | 'fences';
  /** West-south and east-north, in map coordinates. */
  bounds: Bounds;
}

export interface FenceScopeInput {
  /** The chosen users' positions (WGS-84); undefined: none chosen, `enterprise` frames. */
  positions: readonly { lon: number; lat: number }[] | undefined;
  /** Where the enterprise's users are (map coordinates), as the users' layer learnt it. */
  enterprise: Bounds | undefined;
  fences: readonly MapFence[];
  project: MapHandle['project'];
}

/** The box of `points` (map coordinates); undefined for none. */
function boxOf(points: Iterable<[number, number]>): Bounds | undefined {
  let box: Bounds | undefined;
  for (const [x, y] of points) {
    if (!box)
      box = [
        [x, y],
        [x, y],
      ];
    else
      box = [
        [Math.min(box[0][0], x), Math.min(box[0][1], y)],
        [Math.max(box[1][0], x), Math.max(box[1][1], y)],
      ];
  }
  return box;
}

/**
 * What the fence editor opens on: the users the fence applies to (the enterprise's when none is
 * chosen); when none of them has a position, the other fences of the scope; else nothing (the view
 * stays).
 */
export function fenceScopeFrame({
  positions,
  enterprise,
  fences,
  project,
}: FenceScopeInput): FenceScopeFrame | undefined {
  const users = positions === undefined ? enterprise : boxOf(positions.map(({ lon, lat }) => project(lon, lat)));
  if (users) return { kind: 'users', bounds: users };
  const corners = fences.flatMap((fence) =>
    fence.Kind === 'circle' && fence.Center ? circleRing(fence.Center, fence.Radius ?? 0, 8) : (fence.Points ?? []),
  );
  const others = boxOf(corners.map(([lat, lon]) => project(lon, lat)));
  return others && { kind: 'fences', bounds: others };
}
