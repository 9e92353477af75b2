import { HubMethods, HubTargets, type GpsRecord } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FAST_HUB, hubClient, record, until } from './hub/hubTestApp.js';
import { create, org, walker, zone, type Org } from './incidentFixtures.js';
import { FAST_TALK } from './talk/talkFixtures.js';
import { FAST_TERMINALS, startTerminalApp } from './terminals/terminalTestApp.js';
import { useTestApp } from './useTestApp.js';

// The hub's `Incident` push (docs/realtime.md): the consoles of the incident's enterprise hear that an
// incident opened, closed or had members join or leave, and read their open incidents again instead
// of polling them; consoles of other enterprises hear nothing of it.
const t = useTestApp(() => startTerminalApp(FAST_TERMINALS, FAST_HUB, {}, { talk: FAST_TALK }));

/** An `Incident` push's entry (the contract's IncidentPush). */
interface IncidentPush {
  IN_ID: number;
  E_ID: number;
  change: 'opened' | 'members' | 'closed';
}

type Push =
  { type: 'Incident'; data: IncidentPush[] } | { type: 'GPS'; data: GpsRecord[] } | { type: 'other'; data: unknown };

/** A console of `who` subscribed to FuncGPS, and the pushMsg messages it received. */
async function consoleOf(who: Org) {
  const client = hubClient(t, { token: who.token });
  const pushes = record<Push>(client, HubTargets.pushMsg);
  await client.start();
  await client.invoke(HubMethods.FuncGPS);
  const incidents = (): IncidentPush[] => pushes.flatMap((push) => (push.type === 'Incident' ? push.data : []));
  return { client, pushes, incidents };
}

describe('incident changes pushed to the consoles', () => {
  it('tells the enterprise when an incident opens, a member joins or leaves, and it closes; no other enterprise', async () => {
    const [o, other] = [await org(t), await org(t)];
    const mine = await consoleOf(o);
    const theirs = await consoleOf(other);
    const a = await walker(t, o);
    await a.at(900);

    const { IN_ID } = await create(o, zone());
    const seen = (change: IncidentPush['change']) =>
      mine.incidents().filter((push) => push.IN_ID === IN_ID && push.change === change).length;
    await until(() => seen('opened') === 1, 'the opened push');
    expect(mine.incidents()).toContainEqual({ IN_ID, E_ID: o.E_ID, change: 'opened' });

    await a.at(50);
    await until(() => seen('members') === 1, 'the push of a member joining');
    await a.at(900);
    await until(() => seen('members') === 2, 'the push of a member leaving');

    expect((await o.api.postJson('/api/Incident/Close', { IN_ID })).statusCode).toBe(200);
    await until(() => seen('closed') === 1, 'the closed push');

    // A fix of the other enterprise after all of it: once its console has that, it would have had
    // any incident push of its scope too.
    const b = await walker(t, other);
    await b.at(900);
    await until(
      () => theirs.pushes.some((push) => push.type === 'GPS' && push.data.some((gps) => gps.U_ID === b.U_ID)),
      "the other enterprise's fix",
    );
    expect(theirs.incidents()).toEqual([]);

    a.terminal.close();
    b.terminal.close();
    await Promise.all([mine.client.stop(), theirs.client.stop()]);
  });
});
