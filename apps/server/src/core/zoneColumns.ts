import { GeofenceKinds, zoneShape, type LatLon, type ZoneShape } from '@intercom/contract';

/**
 * A zone as the geofence and incident tables store it: a circle's centre and radius, or a polygon's
 * points as JSON `[[lat, lon], ...]` ('' for a circle). PostgreSQL may hand numbers back as text,
 * hence `Number` on the way out.
 */
export interface ZoneColumns {
  Kind: string;
  CenterLat: number | null;
  CenterLon: number | null;
  Radius: number | null;
  Points: string;
}

/** A zone as the API takes it (GeofenceSave, IncidentCreate). */
export interface ZoneInput {
  Kind: string;
  Center?: LatLon | null;
  Radius?: number | null;
  Points?: readonly LatLon[] | null;
}

/** A zone as the API lists it (GeofenceRow, IncidentRow). */
export interface ZoneFields {
  Center: [number, number] | null;
  Radius: number | null;
  Points: [number, number][] | null;
}

/** The columns of a zone the API sent: a circle keeps no points, a polygon no centre. */
export function zoneColumnsOf(input: ZoneInput): ZoneColumns {
  const circle = input.Kind === GeofenceKinds.circle;
  return {
    Kind: input.Kind,
    CenterLat: circle ? (input.Center?.[0] ?? null) : null,
    CenterLon: circle ? (input.Center?.[1] ?? null) : null,
    Radius: circle ? (input.Radius ?? null) : null,
    Points: circle ? '' : JSON.stringify(input.Points ?? []),
  };
}

/** A polygon's stored points, or null (a circle, or text that is not a list of pairs). */
export function parsePoints(text: string): LatLon[] | null {
  if (text === '') return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as LatLon[]) : null;
  } catch {
    return null;
  }
}

/** The stored zone as the checks use it (antimeridian included). */
export function zoneShapeOf(columns: ZoneColumns): ZoneShape {
  const circle = columns.Kind === GeofenceKinds.circle;
  return zoneShape({
    Kind: columns.Kind,
    CenterLat: circle ? Number(columns.CenterLat) : null,
    CenterLon: circle ? Number(columns.CenterLon) : null,
    Radius: circle ? Number(columns.Radius) : null,
    Points: circle ? null : parsePoints(columns.Points),
  });
}

/** The stored zone as the API lists it. */
export function zoneFieldsOf(columns: ZoneColumns): ZoneFields {
  const circle = columns.CenterLat !== null && columns.CenterLon !== null;
  return {
    Center: circle ? [Number(columns.CenterLat), Number(columns.CenterLon)] : null,
    Radius: columns.Radius === null ? null : Number(columns.Radius),
    Points: parsePoints(columns.Points)?.map(([lat, lon]) => [lat, lon] as [number, number]) ?? null,
  };
}
