// postgres: two instances on one PostgreSQL database and one Redis (it runs in that pass only).
import { describe, expect, it } from 'vitest';
import { enterpriseWithAccount } from '../helper.js';
import { SPEECH, FAST_TALK, TALK_TERMINALS, isType, seatOf, talk, waitFor } from '../talk/talkFixtures.js';
import { loggedIn } from '../terminals/terminalTestApp.js';
import { startScaleOut } from '../terminals/scaleOutApps.js';
import { useTestApp } from '../useTestApp.js';

// Two instances on one PostgreSQL database and one Redis: a dispatcher seat that logs in on instance
// b after an SOS opened an emergency call on instance a is offered that call and hears the worker.
const shared = Boolean(process.env.TEST_DATABASE_URL);

describe.runIf(shared)('emergency call for a seat that logs in later on another instance', () => {
  const s = useTestApp(() => startScaleOut(TALK_TERMINALS, FAST_TALK));

  it('is offered the call opened on instance a, and hears the worker', async () => {
    const enterprise = await enterpriseWithAccount(s.a, { role: 'admin' });
    const foreign = await enterpriseWithAccount(s.a, { role: 'admin' });
    const user = await s.user({ E_ID: enterprise.E_ID });
    const terminal = await loggedIn(s.a, user.phone);
    expect(await terminal.request({ type: 'sos', text: 'help' })).toMatchObject({ type: 'ack' });
    const cid = Number((await terminal.next(isType('callStart', { emergency: true }))).cid);

    const late = await seatOf(s.b, enterprise.token);
    const stranger = await seatOf(s.b, foreign.token);
    const start = await late.next(isType('callStart', { cid }));
    expect(start).toEqual({ type: 'callStart', cid, from: user.U_ID, name: expect.any(String), emergency: true });
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(terminal, cid, SPEECH.slice(0, 3));
    await waitFor(() => late.frames.length === 3);
    expect(stranger.received.filter((m) => m.type === 'callStart')).toEqual([]);
    for (const peer of [terminal, late, stranger]) peer.close();
  });
});
