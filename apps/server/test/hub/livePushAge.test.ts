import { HubMethods, HubTargets } from '@intercom/contract';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { FAST_HUB, hubClient, livePushAges, record, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// intercom_live_push_age_seconds: how stale a live push is when it goes to a console, so an operator
// sees the map falling behind before a dispatcher reports it. The app runs on a FakeClock: the push
// interval and the ages are the clock's, so the figures are exact however loaded the machine is.
const PUSH_INTERVAL_MS = 200;
const clock = new FakeClock(Date.now());
const t = useTestApp(() => startHubApp({ ...FAST_HUB, pushIntervalMs: PUSH_INTERVAL_MS }, { clock }));

const move = (U_ID: number, lat: number) =>
  t.live.reportPosition({
    E_ID: t.demo.E_ID,
    U_ID,
    Phone: `1390000${U_ID}`,
    UserName: `Age ${U_ID}`,
    lat,
    lon: 114,
    time: clock.now(),
  });

/** The latitudes of user `U_ID` in the GPS pushes received so far. */
const latitudesOf = (pushes: { type: string; data: unknown }[], U_ID: number) =>
  pushes
    .filter((push) => push.type === 'GPS')
    .flatMap((push) => push.data as { U_ID: number; lat: number }[])
    .filter((gps) => gps.U_ID === U_ID)
    .map((gps) => gps.lat);

/** A started hub client, stopped when the test ends (passed or not). */
async function startedClient() {
  const client = hubClient(t, { token: t.adminToken });
  onTestFinished(() => client.stop());
  await client.start();
  return client;
}

describe('the age of live pushes (/metrics)', () => {
  it('counts each push a console is handed, with the time its oldest change waited for the interval', async () => {
    const client = await startedClient();
    const pushes = record<{ type: string; data: unknown }>(client, HubTargets.pushMsg);
    await client.invoke(HubMethods.FuncGPS);
    await clock.advance(PUSH_INTERVAL_MS);
    const before = await livePushAges(t);

    // After a quiet spell a change goes at once: age 0.
    move(701, 22.1);
    await clock.advance(0);
    await until(() => latitudesOf(pushes, 701).includes(22.1), 'the first move pushed');
    // One 50 ms after that push waits the 150 ms left of the interval.
    await clock.advance(50);
    move(701, 22.2);
    await clock.advance(149);
    expect(latitudesOf(pushes, 701)).not.toContain(22.2);
    await clock.advance(1);
    await until(() => latitudesOf(pushes, 701).includes(22.2), 'the second move pushed');

    const after = await livePushAges(t);
    const added = (le: string) => after.atMost(le) - before.atMost(le);
    expect(after.count - before.count).toBe(2);
    expect(added('0.01')).toBe(1); // the first: 0 s
    expect(added('0.1')).toBe(1);
    expect(added('0.15')).toBe(2); // the second: 0.15 s
  });

  it('counts nothing for a connection that subscribed to nothing', async () => {
    await until(() => t.hub.size === 0, 'the first test’s connection gone');
    await startedClient();
    const before = await livePushAges(t);
    move(702, 22.3);
    await clock.advance(PUSH_INTERVAL_MS * 2);
    expect((await livePushAges(t)).count).toBe(before.count);
  });
});
