import { GeofenceKinds, type LatLon } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { EventBus, RealtimeEvent } from '../../bus/eventBus.js';
import type { DB } from '../../db/schema.js';
import { fenceShape, type FenceShape } from '../geofence/index.js';
import type { IncidentMember, IncidentRecord } from './incidentRepository.js';

/** What the zone test needs of LiveState: the online users of an enterprise and their latest fix. */
export interface LivePositions {
  snapshot(enterpriseIds: Iterable<number>): { online: string[] };
  user(
    E_ID: number,
    U_ID: number,
  ): { online: boolean; UserName: string; position: { lat: number; lon: number } | null } | undefined;
}

/** The stored points of a polygon, or null (a circle, or text that is not a list). */
export function parsePoints(text: string): LatLon[] | null {
  if (text === '') return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as LatLon[]) : null;
  } catch {
    return null;
  }
}

/** The zone of a stored incident as the geofence module's shape test (antimeridian included). */
export function zoneOf(record: IncidentRecord): FenceShape {
  const circle = record.Kind === GeofenceKinds.circle;
  return fenceShape({
    Kind: record.Kind,
    CenterLat: circle ? Number(record.CenterLat) : null,
    CenterLon: circle ? Number(record.CenterLon) : null,
    Radius: circle ? Number(record.Radius) : null,
    Points: circle ? null : parsePoints(record.Points),
  });
}

/** The enterprise's online users whose latest fix lies inside the zone. */
export function onlineInside(live: LivePositions, E_ID: number, zone: FenceShape): number[] {
  const inside: number[] = [];
  for (const json of live.snapshot([E_ID]).online) {
    const { U_ID } = JSON.parse(json) as { U_ID: number };
    const user = live.user(E_ID, U_ID);
    if (user?.online && user.position && zone.depth(user.position.lat, user.position.lon) > 0) inside.push(U_ID);
  }
  return inside;
}

/** Name and member priority (the user's priority level) of the enterprise's users `ids`. */
export async function membersNamed(db: Kysely<DB>, E_ID: number, ids: readonly number[]): Promise<IncidentMember[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('terminal_user')
    .select(['UserID', 'UserName', 'PriorityLevel'])
    .where('E_ID', '=', E_ID)
    .where('UserID', 'in', [...ids])
    .orderBy('UserID')
    .execute();
  return rows.map((r) => ({ U_ID: r.UserID, UserName: r.UserName, Priority: r.PriorityLevel }));
}

export type IncidentEvent = Extract<RealtimeEvent, { kind: 'incident' }>;

/** Tells every instance (this one at once): its cached incidents and its talk service follow. */
export function publishIncident(bus: EventBus, event: Omit<IncidentEvent, 'kind'>): void {
  bus.publish({ kind: 'incident', ...event });
}
