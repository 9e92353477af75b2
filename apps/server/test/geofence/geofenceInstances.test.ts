import { describe, expect, it } from 'vitest';
import { GeofenceWatcher } from '../../src/modules/geofence/index.js';
import { data, insertUsers, org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';
import { circleFence } from './circleFence.js';

// Two instances' watchers on one database, as with PostgreSQL and Redis: a tracker whose fixes
// alternate between them raises each crossing once (issue 32).
const t = useTestApp();

const north = (metres: number) => 10 + metres / 111_195;

describe('geofence state across instances', () => {
  it('alternating instances: enter, exit, enter again, each alarmed once; the same fix seen twice alarms once', async () => {
    const o = await org(t);
    data(await o.api.postJson('/api/Geofence/Save', circleFence({ Center: [10, 20], Radius: 100 })));
    const [U_ID] = await insertUsers(t, o.E_ID, 1);
    const subject = { E_ID: o.E_ID, U_ID: U_ID!, Phone: '' };
    const alarms: string[] = [];
    const instances: GeofenceWatcher[] = [];
    for (let i = 0; i < 2; i++) {
      instances.push(
        new GeofenceWatcher(
          t.db,
          (_subject, NType, Content) => {
            alarms.push(`${i} ${NType} ${typeof Content === 'string' ? Content : Content.text}`);
            return Promise.resolve();
          },
          {
            onError: (error) => {
              throw error;
            },
            // The bus: every instance hears it, the sender included.
            onStateChanged: (_E_ID, user) => instances.forEach((w) => w.usersChanged([user])),
            // Crossings seconds apart, each alarmed: the cooldown has its own tests.
            alarmCooldownMs: 0,
          },
        ),
      );
    }
    const [a, b] = instances as [GeofenceWatcher, GeofenceWatcher];
    let time = Date.now() - 60_000;
    const at = async (w: GeofenceWatcher, metres: number) => {
      time += 1000;
      w.check(subject, [{ lat: north(metres), lon: 20, time, accuracy: 5 }]);
      await w.settle();
    };
    // Both load the user's state while outside.
    await at(a, 300);
    await at(b, 300);
    await at(a, 50);
    await at(b, 300);
    await at(a, 50);
    expect(alarms).toEqual(['0 GeofenceEnter Depot', '1 GeofenceExit Depot', '0 GeofenceEnter Depot']);
    // One fix reaching both (a retry after a lost ack): one alarm.
    await at(a, 300);
    time += 1000;
    const fix = { lat: north(20), lon: 20, time, accuracy: 5 };
    a.check(subject, [fix]);
    b.check(subject, [fix]);
    await Promise.all([a.settle(), b.settle()]);
    expect(alarms.filter((x) => x.includes('Enter'))).toHaveLength(3);
  });
});
