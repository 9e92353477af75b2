import {
  GeofenceLimits,
  destinationPoint,
  distanceMeters as geoDistance,
  normalizeLon,
  unwrapLongitudes,
} from '@intercom/contract';
import type { MapHandle } from './mapContext';

/** `[lat, lon]` in WGS-84 degrees, as the API takes fence and zone shapes. */
export type LatLonPair = [number, number];

/** The shape of a fence or an incident zone as the API takes it: a circle or a polygon. */
export interface FenceShape {
  Center?: LatLonPair;
  /** Metres. */
  Radius?: number;
  Points?: LatLonPair[];
}

export type FenceKind = 'circle' | 'polygon';

/**
 * Great-circle distance in metres between two `[lat, lon]` pairs: the contract's geodesy
 * (packages/contract/src/geodesy.ts), the sphere the server measures fences with.
 */
export function distanceMeters(a: LatLonPair, b: LatLonPair): number {
  return geoDistance(a[0], a[1], b[0], b[1]);
}

/**
 * A circle as a ring of `steps` points (not closed), for drawing: each point is `radius` from the
 * centre on the sphere. Longitudes stay continuous round the centre (a circle across the
 * antimeridian runs past 180 instead of wrapping).
 */
export function circleRing(center: LatLonPair, radius: number, steps = 64): LatLonPair[] {
  const ring: LatLonPair[] = [];
  for (let i = 0; i < steps; i += 1) {
    const [lat, lon] = destinationPoint(center, (360 * i) / steps, radius);
    let x = lon;
    while (x - center[1] > 180) x -= 360;
    while (center[1] - x > 180) x += 360;
    ring.push([lat, x]);
  }
  return ring;
}

/** Where the radius handle of a circle sits: due east of the centre. */
export function radiusHandle(center: LatLonPair, radius: number): LatLonPair {
  return destinationPoint(center, 90, radius);
}

/** A radius the API accepts: whole metres within the fence limits. */
export function clampRadius(meters: number): number {
  const whole = Math.round(Number.isFinite(meters) ? meters : GeofenceLimits.radiusMin);
  return Math.min(GeofenceLimits.radiusMax, Math.max(GeofenceLimits.radiusMin, whole));
}

/** A vertex moved to `to`. */
export function moveVertex(points: readonly LatLonPair[], index: number, to: LatLonPair): LatLonPair[] {
  if (index < 0 || index >= points.length) return [...points];
  return points.map((point, i) => (i === index ? to : point));
}

/** `at` inserted before `index` (at the end for `points.length`); no more than the fence limit. */
export function insertVertex(points: readonly LatLonPair[], index: number, at: LatLonPair): LatLonPair[] {
  if (points.length >= GeofenceLimits.pointsMax) return [...points];
  const i = Math.max(0, Math.min(points.length, index));
  return [...points.slice(0, i), at, ...points.slice(i)];
}

/** The vertex at `index` removed. */
export function removeVertex(points: readonly LatLonPair[], index: number): LatLonPair[] {
  return points.filter((_, i) => i !== index);
}

/**
 * The middle of each edge, the closing edge included once there are three points: dragging one
 * inserts a vertex there (after the edge's first point). Edges go the short way round, as the server
 * joins them.
 */
export function edgeMidpoints(points: readonly LatLonPair[]): { after: number; at: LatLonPair }[] {
  if (points.length < 2) return [];
  const ring = unwrapLongitudes(points);
  const edges = points.length >= 3 ? ring.length : ring.length - 1;
  const out: { after: number; at: LatLonPair }[] = [];
  for (let i = 0; i < edges; i += 1) {
    const a = ring[i] as LatLonPair;
    let b = ring[(i + 1) % ring.length] as LatLonPair;
    // The closing edge: its end was unwrapped from the first point, not from the last.
    if (i === ring.length - 1) b = unwrapLongitudes([a, points[0] as LatLonPair])[1] as LatLonPair;
    out.push({ after: i, at: [(a[0] + b[0]) / 2, normalizeLon((a[1] + b[1]) / 2)] });
  }
  return out;
}

/**
 * The WGS-84 point a map position (in the basemap's datum) stands for: `project` inverted by a few
 * fixed-point steps (GCJ-02 shifts by at most some hundred metres and changes slowly, so three steps
 * land within millimetres; the identity needs none).
 */
export function unproject(project: MapHandle['project'], lon: number, lat: number): LatLonPair {
  let x = lon;
  let y = lat;
  for (let i = 0; i < 4; i += 1) {
    const [px, py] = project(x, y);
    const dx = px - lon;
    const dy = py - lat;
    if (Math.abs(dx) < 1e-10 && Math.abs(dy) < 1e-10) break;
    x -= dx;
    y -= dy;
  }
  return [y, normalizeLon(x)];
}

/** Every point that outlines the shape, for fitting the camera; empty when nothing is drawn yet. */
export function shapeOutline(kind: FenceKind, shape: FenceShape): LatLonPair[] {
  if (kind === 'circle') return shape.Center && shape.Radius ? circleRing(shape.Center, shape.Radius, 16) : [];
  return unwrapLongitudes(shape.Points ?? []);
}

/** The radius of a circle first placed on the map: a fifth of the view's width, within the limits. */
export function firstRadius(viewWidthMeters: number): number {
  return clampRadius(Math.round(viewWidthMeters / 5 / 10) * 10);
}

/**
 * The first radius, shortened to `roomMeters` (from the centre to the visible map's east edge,
 * where the radius handle goes) when that is less: the handle is never placed under a panel.
 * Undefined room: the centre itself is at that edge, nothing shorter helps.
 */
export function firstRadiusInRoom(viewWidthMeters: number, roomMeters: number | undefined): number {
  const radius = firstRadius(viewWidthMeters);
  return roomMeters === undefined || roomMeters >= radius ? radius : clampRadius(roomMeters);
}
