import { HubMethods, HubTargets } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FAST_HUB, hubClient, livePushAges, record, startHubApp, until } from './hubTestApp.js';
import { useTestApp } from '../useTestApp.js';

// intercom_live_push_age_seconds: how stale a live push is when it goes to a console, so an operator
// sees the map falling behind before a dispatcher reports it.
const PUSH_INTERVAL_MS = 200;
const t = useTestApp(() => startHubApp({ ...FAST_HUB, pushIntervalMs: PUSH_INTERVAL_MS }));

const move = (U_ID: number, lat: number) =>
  t.live.reportPosition({
    E_ID: t.demo.E_ID,
    U_ID,
    Phone: `1390000${U_ID}`,
    UserName: `Age ${U_ID}`,
    lat,
    lon: 114,
    time: Date.now(),
  });

/** The latitudes of user `U_ID` in the GPS pushes received so far. */
const latitudesOf = (pushes: { type: string; data: unknown }[], U_ID: number) =>
  pushes
    .filter((push) => push.type === 'GPS')
    .flatMap((push) => push.data as { U_ID: number; lat: number }[])
    .filter((gps) => gps.U_ID === U_ID)
    .map((gps) => gps.lat);

describe('the age of live pushes (/metrics)', () => {
  it('counts each push a console is handed, with the time its oldest change waited for the interval', async () => {
    const client = hubClient(t, { token: t.adminToken });
    const pushes = record<{ type: string; data: unknown }>(client, HubTargets.pushMsg);
    await client.start();
    await client.invoke(HubMethods.FuncGPS);
    const before = await livePushAges(t);

    // After a quiet spell a change goes at once; one right after that push waits for the next interval.
    move(701, 22.1);
    await until(() => latitudesOf(pushes, 701).includes(22.1), 'the first move pushed');
    move(701, 22.2);
    await until(() => latitudesOf(pushes, 701).includes(22.2), 'the second move pushed');

    const after = await livePushAges(t);
    expect(after.count - before.count).toBeGreaterThanOrEqual(2);
    // The second waited most of the interval: older than 0.15 s, and none older than 0.5 s.
    expect(after.count - after.atMost('0.15') - (before.count - before.atMost('0.15'))).toBeGreaterThanOrEqual(1);
    expect(after.count - after.atMost('0.5')).toBe(0);
    await client.stop();
  });

  it('counts nothing for a connection that subscribed to nothing', async () => {
    const client = hubClient(t, { token: t.adminToken });
    await client.start();
    const before = await livePushAges(t);
    move(702, 22.3);
    await new Promise((resolve) => setTimeout(resolve, PUSH_INTERVAL_MS * 2));
    expect((await livePushAges(t)).count).toBe(before.count);
    await client.stop();
  });
});
