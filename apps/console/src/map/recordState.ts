import type { GpsRecord } from '@intercom/contract';
import { userMapState, type UserMapState } from './userMapState';

/** The state of a hub record, given the users with an unhandled SOS. */
export function recordState(record: GpsRecord, sos: ReadonlySet<number>): UserMapState {
  const gpsOnline = (record as GpsRecord & { gpsOnline?: boolean }).gpsOnline ?? true;
  return userMapState({ online: record.online, talking: record.talking, gpsOnline }, sos.has(record.U_ID));
}
