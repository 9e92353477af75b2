import type { Notification } from '@intercom/contract';
import { describe, expect, test } from 'vitest';
import { sosUserIds, userMapState } from './userMapState';

const record = (overrides: Partial<{ online: boolean; talking: boolean; gpsOnline: boolean }> = {}) => ({
  online: true,
  talking: false,
  gpsOnline: true,
  ...overrides,
});

describe('userMapState', () => {
  test('a chat-online user with a fresh fix is online; without one, stale', () => {
    expect(userMapState(record(), false)).toBe('online');
    expect(userMapState(record({ gpsOnline: false }), false)).toBe('stale');
  });

  test('not chat-online is offline whatever the fix; holding the floor is chatting even when stale', () => {
    expect(userMapState(record({ online: false }), false)).toBe('offline');
    expect(userMapState(record({ online: false, gpsOnline: false }), false)).toBe('offline');
    expect(userMapState(record({ talking: true, gpsOnline: false }), false)).toBe('chatting');
  });

  test('SOS wins over every other state', () => {
    expect(userMapState(record({ online: false }), true)).toBe('sos');
    expect(userMapState(record({ talking: true }), true)).toBe('sos');
    expect(userMapState(record({ gpsOnline: false }), true)).toBe('sos');
  });
});

describe('sosUserIds', () => {
  const alarm = (N_ID: number, NType: string, U_ID: number | null): Notification => ({
    N_ID,
    E_ID: 1,
    U_ID,
    Phone: '1',
    NType,
    Content: '',
    Latitude: null,
    Longitude: null,
    State: 'new',
    CreatedAt: 0,
  });

  test('only SOS alarms of known users count', () => {
    expect([...sosUserIds([alarm(1, 'SOS', 5), alarm(2, 'LowBattery', 6), alarm(3, 'SOS', null)])]).toEqual([5]);
  });
});
