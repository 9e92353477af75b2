import { TerminalCloseCodes } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { authed, loginAdmin } from '../helper.js';
import { startScaleOut } from './scaleOutApps.js';
import { FAST_TERMINALS, loggedIn } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// Changes made through instance A reach a terminal connected to instance B: user management and
// location profiles publish their events on the EventBus, which Redis carries between instances.
const s = useTestApp(() => startScaleOut(FAST_TERMINALS));

describe('changes made on one instance reach terminals on the other', () => {
  it('closes the terminal on B when an administrator freezes its user on A', async () => {
    const { phone } = await s.user();
    const onB = await loggedIn(s.b, phone);
    const api = authed(s.a.app, await loginAdmin(s.a));
    const res = await api.post('/api/UserInfo/FreezeUser', { MobilePhone: phone, isLock: 'true' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await onB.next((m) => m.type === 'closing')).toMatchObject({ reason: 'frozen' });
    expect(await onB.closed).toBe(TerminalCloseCodes.accountChanged);
  });

  it('closes the terminal on B when its password is changed on A', async () => {
    const { phone, U_ID } = await s.user();
    const onB = await loggedIn(s.b, phone);
    const api = authed(s.a.app, await loginAdmin(s.a));
    const res = await api.post('/api/UserInfo/UpdateUser', { UserID: String(U_ID), Password: 'newpass1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await onB.next((m) => m.type === 'closing')).toMatchObject({ reason: 'password' });
  });

  it('pushes the new current profile made on A to a terminal connected to B', async () => {
    const { phone } = await s.user();
    const onB = await loggedIn(s.b, phone);
    const api = authed(s.a.app, await loginAdmin(s.a));
    const saved = await api.post('/api/Enterprise/SaveLocationConfig', {
      scName: `Patrol ${phone}`,
      scValue: '{"interval":15,"distance":50,"mode":"both"}',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const profile = saved.json<{ BaseData: { SC_ID: number; E_ID: number; SCName: string; SCValue: string } }>()
      .BaseData;
    if (!s.shared) {
      // Separate SQLite databases: give B the row a shared database would hold once A commits.
      await s.b.db
        .insertInto('location_profile')
        .values({ ...profile, IsCurrent: 1 })
        .execute();
    }
    const current = await api.post('/api/Enterprise/SaveCurrentLocationConfig', { scID: String(profile.SC_ID) });
    expect(current.statusCode, current.body).toBe(200);
    const pushed = await onB.next((m) => m.type === 'config');
    expect(pushed).toMatchObject({ config: { interval: 15, distance: 50, mode: 'both', enabled: true } });
    onB.close();
  });
});
