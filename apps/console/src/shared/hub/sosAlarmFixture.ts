import type { Notification } from '@intercom/contract';

/** An unhandled SOS alarm of user `U_ID` (N_ID 100 + U_ID), for tests; `change` overrides any field. */
export function sosAlarmFixture(U_ID: number, change: Partial<Notification> = {}): Notification {
  return {
    N_ID: 100 + U_ID,
    E_ID: 1,
    U_ID,
    Phone: '',
    NType: 'SOS',
    Content: '',
    Latitude: null,
    Longitude: null,
    State: 'new',
    CreatedAt: 1_767_225_600_000,
    ...change,
  };
}
