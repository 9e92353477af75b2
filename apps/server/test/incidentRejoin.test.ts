// postgres: incident membership rows through the API.
import { describe, expect, it } from 'vitest';
import { FAST_HUB } from './hub/hubTestApp.js';
import { create, org, pushes, settled, walker, zone } from './incidentFixtures.js';
import { FAST_TALK, SPEECH, isType, talk, waitFor } from './talk/talkFixtures.js';
import { FAST_TERMINALS, loggedIn, startTerminalApp } from './terminals/terminalTestApp.js';
import { useTestApp } from './useTestApp.js';

// A terminal that reconnects while a member of an open incident is regrouped into it again (issue 32).
const t = useTestApp(() => startTerminalApp(FAST_TERMINALS, FAST_HUB, {}, { talk: FAST_TALK }));

describe('incident membership across a reconnect', () => {
  it('a member that logs in again is told regrouped and hears the channel; after the close it is not', async () => {
    const o = await org(t);
    const [a, b] = [await walker(t, o, 'Alpha'), await walker(t, o, 'Bravo')];
    await a.at(20);
    await b.at(30);
    const { IN_ID, CID } = await create(o, zone());
    await settled(t);
    await a.terminal.next(isType('regrouped', { cid: CID }));

    // Alpha's phone drops and logs in again (as after a restart of its instance).
    a.terminal.socket.terminate();
    await a.terminal.closed;
    const again = await loggedIn(t, a.phone);
    const regrouped = await again.next(isType('regrouped', { cid: CID }));
    expect(regrouped).toMatchObject({ type: 'regrouped', cid: CID, incident: IN_ID });
    // It hears Bravo without joining.
    expect(await b.terminal.request({ type: 'floorRequest', cid: CID })).toMatchObject({ granted: true });
    await talk(b.terminal, CID, SPEECH.slice(0, 3));
    await waitFor(() => again.frames.length === 3);
    expect(await b.terminal.request({ type: 'floorRelease', cid: CID })).toMatchObject({ type: 'ack' });

    // Closed: a member logging in again is regrouped nowhere.
    expect((await o.api.postJson('/api/Incident/Close', { IN_ID })).statusCode).toBe(200);
    await settled(t);
    again.close();
    await again.closed;
    const later = await loggedIn(t, a.phone);
    await t.app.talk.service.regroups.settle();
    expect(pushes(later, 'regrouped')).toEqual([]);
    for (const terminal of [b.terminal, later]) terminal.close();
  });
});
