import { IncidentLeaveReasons, TalkErrors, type IncidentRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { rows } from './channelFixtures.js';
import { FAST_HUB } from './hub/hubTestApp.js';
import { create, org, pushes, settled, walker, zone, type Walker } from './incidentFixtures.js';
import { createChannel, FAST_TALK, isType, readDown, SPEECH, talk, waitFor } from './talk/talkFixtures.js';
import { FAST_TERMINALS, startTerminalApp } from './terminals/terminalTestApp.js';
import { useTestApp } from './useTestApp.js';

// Terminals in incident zones (issue 32): `regrouped` on entering (and at the create), `channelLeft`
// `left_zone` on leaving unless Sticky, `incident_closed` at the close; members hear the channel at once.
const t = useTestApp(() => startTerminalApp(FAST_TERMINALS, FAST_HUB, {}, { talk: FAST_TALK }));

/** `talker` takes the floor of `cid`, sends `n` packets and releases it; resolves once `listener` got them. */
async function speak(talker: Walker, cid: number, listener: Walker, n = 8) {
  expect(await talker.terminal.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'ack', granted: true });
  const before = listener.terminal.frames.length;
  await talk(talker.terminal, cid, SPEECH.slice(0, n));
  await waitFor(() => listener.terminal.frames.length >= before + n);
  expect(await talker.terminal.request({ type: 'floorRelease', cid })).toMatchObject({ type: 'ack' });
  return listener.terminal.frames.slice(before).map((f) => readDown(f));
}

const left = (w: Walker, cid: number) => pushes(w.terminal, 'channelLeft').filter((m) => m.cid === cid);
const regrouped = (w: Walker, cid: number) => pushes(w.terminal, 'regrouped').filter((m) => m.cid === cid);

describe('incident zones on /terminal', () => {
  it('Create regroups the online terminals inside: they hear the channel without joining; one outside does not', async () => {
    const o = await org(t);
    const [a, b, out] = [await walker(t, o, 'Alpha'), await walker(t, o, 'Bravo'), await walker(t, o, 'Out')];
    // Alpha was talking in its own channel: the incident takes it from there, as a join would.
    const own = await createChannel(t, o.E_ID, [{ U_ID: a.U_ID }]);
    expect(await a.terminal.request({ type: 'join', cid: own })).toMatchObject({ type: 'ack' });
    await a.at(50);
    await b.at(150);
    await out.at(260);
    const { IN_ID, CID } = await create(o, zone({ Name: 'Crash site' }));
    const message = await a.terminal.next(isType('regrouped', { cid: CID }));
    expect(message).toEqual({ type: 'regrouped', cid: CID, name: 'Crash site', incident: IN_ID });
    await b.terminal.next(isType('regrouped', { cid: CID }));
    await settled(t);
    expect(regrouped(out, CID)).toEqual([]);
    // Their channel lists changed (the incident's channel is in them), the outsider's did not.
    await a.terminal.next(isType('channelsChanged'));
    const listed = await a.terminal.request({ type: 'channels' });
    expect(listed).toMatchObject({
      type: 'ack',
      channels: expect.arrayContaining([expect.objectContaining({ cid: CID })]),
    });
    expect(pushes(out.terminal, 'channelsChanged')).toEqual([]);
    // Bravo talks; Alpha hears it in the incident's channel having sent nothing but fixes.
    const heard = await speak(b, CID, a);
    expect(heard.every((f) => f.cid === CID && f.speaker === b.U_ID)).toBe(true);
    // The one outside is no member: it may not join the channel.
    expect(await out.terminal.request({ type: 'join', cid: CID })).toMatchObject({ code: TalkErrors.notMember });
    for (const w of [a, b, out]) w.terminal.close();
  });

  it('a fix inside joins, one outside by more than the accuracy leaves (left_zone), a fix at the edge changes nothing', async () => {
    const o = await org(t);
    const [a, b] = [await walker(t, o), await walker(t, o)];
    await a.at(50);
    await b.at(900);
    const { IN_ID, CID } = await create(o, zone());
    await a.terminal.next(isType('regrouped', { cid: CID }));
    expect(regrouped(b, CID)).toEqual([]);
    await b.at(100);
    expect(await b.terminal.next(isType('regrouped', { cid: CID }))).toMatchObject({ incident: IN_ID });
    // 5 m outside with an accuracy of 5 m: within the 10 m margin, still a member.
    await b.at(205);
    expect(left(b, CID)).toEqual([]);
    await b.at(400);
    expect(await b.terminal.next(isType('channelLeft', { cid: CID }))).toEqual({
      type: 'channelLeft',
      cid: CID,
      reason: IncidentLeaveReasons.leftZone,
    });
    // Out of the room: Alpha's speech no longer reaches it, and it is no member of the channel.
    const framesBefore = b.terminal.frames.length;
    const heardByNobody = await a.terminal.request({ type: 'floorRequest', cid: CID });
    expect(heardByNobody).toMatchObject({ granted: true });
    await talk(a.terminal, CID, SPEECH.slice(0, 5));
    await a.terminal.request({ type: 'floorRelease', cid: CID });
    expect(b.terminal.frames.length).toBe(framesBefore);
    expect(await b.terminal.request({ type: 'join', cid: CID })).toMatchObject({ code: TalkErrors.notMember });
    // Back inside: regrouped again. The timeline lists each change.
    await b.at(10);
    await waitFor(() => regrouped(b, CID).length === 2);
    const row = rows<IncidentRow>(await o.api.get('/api/Incident/QueryData')).rows[0]!;
    expect(row.Timeline.filter((e) => e.U_ID === b.U_ID).map((e) => e.Change)).toEqual(['joined', 'left', 'joined']);
    expect(row.MemberIds.sort()).toEqual([a.U_ID, b.U_ID].sort());
    for (const w of [a, b]) w.terminal.close();
  });

  it('Sticky keeps a member who leaves the zone; Close tells every member incident_closed and dissolves the channel', async () => {
    const o = await org(t);
    const [a, b] = [await walker(t, o), await walker(t, o)];
    await a.at(20);
    await b.at(30);
    const { IN_ID, CID } = await create(o, zone({ Sticky: true }));
    await a.terminal.next(isType('regrouped', { cid: CID }));
    await b.terminal.next(isType('regrouped', { cid: CID }));
    await a.at(5000);
    expect(left(a, CID)).toEqual([]);
    // Still in the room far away: it hears Bravo.
    expect((await speak(b, CID, a, 4)).length).toBe(4);
    expect((await o.api.postJson('/api/Incident/Close', { IN_ID })).statusCode).toBe(200);
    for (const w of [a, b]) {
      expect(await w.terminal.next(isType('channelLeft', { cid: CID }))).toEqual({
        type: 'channelLeft',
        cid: CID,
        reason: IncidentLeaveReasons.closed,
      });
    }
    await settled(t);
    // Gone: the floor of the dissolved channel is refused, and a fix inside joins nothing.
    expect(await b.terminal.request({ type: 'floorRequest', cid: CID })).toMatchObject({ type: 'error' });
    await b.at(10);
    expect(regrouped(b, CID)).toHaveLength(1);
    for (const w of [a, b]) w.terminal.close();
  });

  it('the alarms of members while they are in the incident are listed with it; an outsider SOS is not', async () => {
    const o = await org(t);
    const [a, out] = [await walker(t, o), await walker(t, o)];
    await a.at(20);
    await out.at(900);
    const { CID } = await create(o, zone());
    await a.terminal.next(isType('regrouped', { cid: CID }));
    for (const w of [a, out])
      expect(await w.terminal.request({ type: 'sos', text: 'help' })).toMatchObject({ type: 'ack' });
    await t.terminals.service.alarms.settle();
    const mine = await t.db.selectFrom('notification').select('N_ID').where('U_ID', '=', a.U_ID).execute();
    const row = rows<IncidentRow>(await o.api.get('/api/Incident/QueryData')).rows[0]!;
    expect(row.AlarmIds).toEqual(mine.map((n) => n.N_ID));
    expect(row.AlarmIds.length).toBeGreaterThan(0);
    for (const w of [a, out]) w.terminal.close();
  });
});
