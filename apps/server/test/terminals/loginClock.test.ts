import { describe, expect, it } from 'vitest';
import { LoginClock, isNewerLogin } from '../../src/terminals/loginClock.js';

describe('LoginClock', () => {
  it('stamps a login after any login of that user heard of, even from a server whose clock is ahead', () => {
    const here = new LoginClock();
    const ahead = new LoginClock();
    const remote = ahead.stamp(7, 1_000_000 + 60_000);
    here.heard(7, remote);
    const local = here.stamp(7, 1_000_000);
    expect(isNewerLogin(local, remote)).toBe(true);
    expect(isNewerLogin(remote, local)).toBe(false);
    // Other users keep the wall clock.
    expect(here.stamp(8, 1_000_000).at).toBe(1_000_000);
  });

  it('orders two logins of the same millisecond the same way on both instances', () => {
    const a = new LoginClock().stamp(7, 5_000);
    const b = new LoginClock().stamp(7, 5_000);
    expect(isNewerLogin(a, b)).toBe(!isNewerLogin(b, a));
    expect(isNewerLogin(a, null)).toBe(true);
  });
});
