import type { GpsRecord } from '@intercom/contract';

/** A hub record of a chat-online user with a fresh fix, for tests; `change` overrides any field. */
export function gpsRecordFixture(U_ID: number, change: Partial<GpsRecord> = {}): GpsRecord {
  return {
    U_ID,
    E_ID: 1,
    Phone: `1380000000${U_ID}`,
    UserName: `Patrol ${U_ID}`,
    lat: 22.5,
    lon: 114,
    time: 1_767_225_600_000,
    speed: null,
    course: null,
    battery: 80,
    signal: 70,
    online: true,
    talking: false,
    gpsOnline: true,
    interval: 60,
    ...change,
  };
}
