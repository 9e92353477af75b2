import { unwrapLongitudes } from '@intercom/contract';
import type { Feature, FeatureCollection } from 'geojson';
import type { MapHandle } from './mapContext';
import {
  circleRing,
  edgeMidpoints,
  radiusHandle,
  type FenceKind,
  type FenceShape,
  type LatLonPair,
} from './shapeGeometry';

/** The start of the ids of ShapeDraw's sources and layers (other layers go under them). */
export const SHAPE_DRAW_PREFIX = 'shape-draw-';

const drawing = new WeakMap<object, number>();

/**
 * Counts the editable ShapeDraws on a map (`by` +1 when one mounts, -1 when it goes). While one
 * is there, a click on the map is the drawing's: the users' layer neither selects nor zooms.
 */
export function countDrawing(map: object, by: 1 | -1): void {
  drawing.set(map, (drawing.get(map) ?? 0) + by);
}

export function isDrawing(map: object): boolean {
  return (drawing.get(map) ?? 0) > 0;
}

/** What a handle of the drawing tool does when dragged. */
export type HandleKind = 'centre' | 'radius' | 'vertex' | 'midpoint';

export const emptyCollection = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] });

type Project = MapHandle['project'];

/** `[lat, lon]` points to map positions; longitudes continuous from the first (across 180 too). */
export function positions(points: readonly LatLonPair[], project: Project): [number, number][] {
  const ring = unwrapLongitudes(points);
  return ring.map(([lat, lon]) => {
    // The projection works on plain longitudes; the 360-degree turn is put back after it.
    const turn = Math.round(lon / 360) * 360;
    const [x, y] = project(lon - turn, lat);
    return [x + turn, y];
  });
}

function area(points: readonly LatLonPair[], project: Project): Feature {
  const ring = positions(points, project);
  if (ring.length < 3) return { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: ring } };
  return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] } };
}

function handle(kind: HandleKind, index: number, at: LatLonPair, project: Project): Feature {
  return {
    type: 'Feature',
    properties: { kind, index },
    geometry: { type: 'Point', coordinates: project(at[1], at[0]) },
  };
}

/** The outline of the shape being drawn (a polygon, or a line while it has two points). */
export function shapeArea(kind: FenceKind, shape: FenceShape, project: Project): FeatureCollection {
  if (kind === 'circle') {
    if (!shape.Center || !shape.Radius) return emptyCollection();
    const spoke: Feature = {
      type: 'Feature',
      properties: { spoke: true },
      geometry: {
        type: 'LineString',
        coordinates: positions([shape.Center, radiusHandle(shape.Center, shape.Radius)], project),
      },
    };
    return { type: 'FeatureCollection', features: [area(circleRing(shape.Center, shape.Radius), project), spoke] };
  }
  const points = shape.Points ?? [];
  return { type: 'FeatureCollection', features: points.length >= 2 ? [area(points, project)] : [] };
}

/** The handles: centre and radius of a circle; vertices and edge midpoints of a polygon. */
export function shapeHandles(kind: FenceKind, shape: FenceShape, project: Project): FeatureCollection {
  const features: Feature[] = [];
  if (kind === 'circle') {
    if (shape.Center) features.push(handle('centre', 0, shape.Center, project));
    if (shape.Center && shape.Radius)
      features.push(handle('radius', 0, radiusHandle(shape.Center, shape.Radius), project));
  } else {
    const points = shape.Points ?? [];
    for (const { after, at } of edgeMidpoints(points)) features.push(handle('midpoint', after, at, project));
    points.forEach((point, index) => features.push(handle('vertex', index, point, project)));
  }
  return { type: 'FeatureCollection', features };
}
