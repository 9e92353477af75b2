import { IncidentLeaveReasons } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, org, settled, walker } from './incidentFixtures.js';
import { FAST_TALK, TALK_TERMINALS, isType, readDown, SPEECH, talk, waitFor } from './talk/talkFixtures.js';
import { startScaleOut, type ScaleOut } from './terminals/scaleOutApps.js';

// Incident zones across two instances on one PostgreSQL database and one Redis (issue 32): the
// incident is created on A, a member's terminal is connected to B. Separate SQLite databases cannot
// share an incident, so this runs with TEST_DATABASE_URL.
const shared = Boolean(process.env.TEST_DATABASE_URL);
let s: ScaleOut;

beforeAll(async () => {
  if (shared) s = await startScaleOut(TALK_TERMINALS, FAST_TALK);
});
afterAll(async () => {
  await s?.close();
});

describe.runIf(shared)('incident zones across instances', () => {
  it('created on A: a terminal on B is regrouped, hears A, leaves the zone through B, and gets the close made on A', async () => {
    const o = await org(s.a);
    const onA = await walker(s.a, o, 'On A');
    const onB = await walker(s.a, o, 'On B', s.b);
    await onA.at(20);
    await onB.at(40);
    // A's live state has B's terminal online at its fix (the bus carries it).
    await waitFor(() => s.a.live.user(o.E_ID, onB.U_ID)?.position?.lat === 30 + 40 / 111_195);
    const { IN_ID, CID } = await create(o, {
      Name: 'Flood',
      Kind: 'polygon',
      Points: [
        [29.99, 59.99],
        [29.99, 60.01],
        [30.01, 60.01],
        [30.01, 59.99],
      ],
    });
    expect(await onB.terminal.next(isType('regrouped', { cid: CID }))).toEqual({
      type: 'regrouped',
      cid: CID,
      name: 'Flood',
      incident: IN_ID,
    });
    await onA.terminal.next(isType('regrouped', { cid: CID }));
    expect(await onA.terminal.request({ type: 'floorRequest', cid: CID })).toMatchObject({ granted: true });
    await talk(onA.terminal, CID, SPEECH.slice(0, 6));
    await waitFor(() => onB.terminal.frames.length >= 6);
    expect(onB.terminal.frames.map((f) => readDown(f).cid)).toEqual(Array(6).fill(CID));
    await onA.terminal.request({ type: 'floorRelease', cid: CID });
    // Out of the zone by B's fix: B decides, B's terminal leaves; A's watcher knows it is no member.
    await onB.at(5000);
    expect(await onB.terminal.next(isType('channelLeft', { cid: CID }))).toMatchObject({
      reason: IncidentLeaveReasons.leftZone,
    });
    await settled(s.a);
    const members = await s.a.db.selectFrom('incident_member').select('U_ID').where('IN_ID', '=', IN_ID).execute();
    expect(members.map((m) => m.U_ID)).toEqual([onA.U_ID]);
    // Back in: joined again once, whichever instance hears of it.
    await onB.at(10);
    await waitFor(() => onB.terminal.received.filter((m) => m.type === 'regrouped' && m.cid === CID).length === 2);
    expect((await o.api.postJson('/api/Incident/Close', { IN_ID })).statusCode).toBe(200);
    for (const w of [onA, onB]) {
      await w.terminal.next(isType('channelLeft', { cid: CID, reason: IncidentLeaveReasons.closed }));
    }
    expect(onB.terminal.received.filter((m) => m.type === 'channelLeft').map((m) => m.reason)).toEqual([
      IncidentLeaveReasons.leftZone,
      IncidentLeaveReasons.closed,
    ]);
    await settled(s.b);
    expect(onB.terminal.received.filter((m) => m.type === 'regrouped')).toHaveLength(2);
    for (const w of [onA, onB]) w.terminal.close();
  });
});
