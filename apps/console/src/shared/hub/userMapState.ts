import type { Notification } from '@intercom/contract';
import { NotificationTypes } from '@intercom/contract';

/** How a user looks on the map and in the trees, most urgent first. */
export type UserMapState = 'sos' | 'chatting' | 'online' | 'stale' | 'offline';

export const USER_MAP_STATES: readonly UserMapState[] = ['sos', 'chatting', 'online', 'stale', 'offline'];

/** The fields of the hub record the state needs. `gpsOnline` is the server's call (its clock, not the browser's). */
export interface StateInput {
  online: boolean;
  talking: boolean;
  gpsOnline: boolean;
}

/**
 * SOS wins over everything; a user holding the floor is chatting; a user not chat-online is
 * offline; a chat-online user without a fresh fix is stale; else online.
 */
export function userMapState(record: StateInput, sos: boolean): UserMapState {
  if (sos) return 'sos';
  if (!record.online) return 'offline';
  if (record.talking) return 'chatting';
  if (!record.gpsOnline) return 'stale';
  return 'online';
}

/** Users with an unhandled SOS alarm. */
export function sosUserIds(alarms: Iterable<Notification>): Set<number> {
  const ids = new Set<number>();
  for (const alarm of alarms) if (alarm.NType === NotificationTypes.sos && alarm.U_ID !== null) ids.add(alarm.U_ID);
  return ids;
}
