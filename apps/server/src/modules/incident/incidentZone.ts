import type { ZoneShape } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { EventBus, RealtimeEvent } from '../../bus/eventBus.js';
import type { DB } from '../../db/schema.js';
import type { IncidentMember } from './incidentRepository.js';

/** What the zone test needs of LiveState: the online users of an enterprise and their latest fix. */
export interface LivePositions {
  onlineUsersOf(E_ID: number): readonly { U_ID: number; position: { lat: number; lon: number } | null }[];
  user(
    E_ID: number,
    U_ID: number,
  ): { online: boolean; UserName: string; position: { lat: number; lon: number } | null } | undefined;
}

/** The enterprise's online users whose latest fix lies inside the zone. */
export function onlineInside(live: LivePositions, E_ID: number, zone: ZoneShape): number[] {
  const inside: number[] = [];
  for (const { U_ID, position } of live.onlineUsersOf(E_ID)) {
    if (position && zone.depth(position.lat, position.lon) > 0) inside.push(U_ID);
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
