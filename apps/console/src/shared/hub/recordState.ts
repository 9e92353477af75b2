import type { GpsRecord } from '@intercom/contract';
import { userMapState, type UserMapState } from './userMapState';

/** The state of a hub record, given the users with an unhandled SOS. */
export function recordState(record: GpsRecord, sos: ReadonlySet<number>): UserMapState {
  return userMapState(record, sos.has(record.U_ID));
}
