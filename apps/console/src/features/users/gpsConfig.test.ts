import { checkGpsConfig } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { gpsConfigText, gpsFormValues, gpsSummary } from './gpsConfig';
import { userState } from './userState';

describe('GPS parameter of a user', () => {
  it('round-trips through the form and passes the contract check', () => {
    for (const text of ['', '{"enabled":true,"interval":30}', '{"enabled":false}']) {
      expect(gpsConfigText(gpsFormValues(text))).toBe(text);
      expect(checkGpsConfig(gpsConfigText(gpsFormValues(text)))).toBeNull();
    }
  });

  it('leaves an empty interval for the contract to refuse', () => {
    const text = gpsConfigText({ gpsFollow: false, gpsEnabled: true, gpsInterval: null });
    expect(checkGpsConfig(text)).toBe('user.gps_invalid');
  });

  it('summarises for the list', () => {
    expect(gpsSummary('')).toEqual({ key: 'users.gps_follow_short' });
    expect(gpsSummary('{"enabled":true,"interval":15}')).toEqual({ key: 'users.gps_every', params: { seconds: 15 } });
  });
});

describe('user state', () => {
  it('frozen wins over expired', () => {
    expect(userState({ IsLock: 1, ExpireAt: 1 }, 10)).toBe('locked');
    expect(userState({ IsLock: 0, ExpireAt: 1 }, 10)).toBe('expired');
    expect(userState({ IsLock: 0, ExpireAt: null }, 10)).toBe('normal');
  });
});
