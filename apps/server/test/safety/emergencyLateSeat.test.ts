import { describe, expect, it } from 'vitest';
import { enterpriseWithAccount } from '../helper.js';
import { sleep } from '../hub/hubTestApp.js';
import { SPEECH, isType, seatOf, talk, useTalkApp, waitFor } from '../talk/talkFixtures.js';
import { createTerminalUser, loggedIn } from '../terminals/terminalTestApp.js';

// A dispatcher seat that logs in after an SOS began is offered the open emergency call (issue 32).
const t = useTalkApp();

describe('emergency call for a seat that logs in later', () => {
  it('is offered the open call and hears the terminal; a seat of another enterprise is not; an ended call is not offered', async () => {
    const enterprise = await enterpriseWithAccount(t, { role: 'admin' });
    const foreign = await enterpriseWithAccount(t, { role: 'admin' });
    const user = await createTerminalUser(t, { E_ID: enterprise.E_ID });
    const terminal = await loggedIn(t, user.phone);
    expect(await terminal.request({ type: 'sos', text: 'help' })).toMatchObject({ type: 'ack' });
    const cid = Number((await terminal.next(isType('callStart', { emergency: true }))).cid);

    const late = await seatOf(t, enterprise.token);
    const stranger = await seatOf(t, foreign.token);
    const start = await late.next(isType('callStart', { cid }));
    expect(start).toEqual({ type: 'callStart', cid, from: user.U_ID, name: expect.any(String), emergency: true });
    // The worker talks at emergency priority; the late seat hears it, and can answer.
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(terminal, cid, SPEECH.slice(0, 3));
    await waitFor(() => late.frames.length === 3);
    expect(await terminal.request({ type: 'floorRelease', cid })).toMatchObject({ type: 'ack' });
    await late.next(isType('floorIdle', { cid }));
    expect(await late.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(late, cid, SPEECH.slice(0, 2));
    await waitFor(() => terminal.frames.length === 2);
    expect(stranger.received.filter((m) => m.type === 'callStart')).toEqual([]);

    // Ended by the dispatcher: a seat logging in afterwards is offered nothing.
    expect(await late.request({ type: 'hangup', cid })).toMatchObject({ type: 'ack' });
    await terminal.next(isType('callEnd', { cid }));
    const after = await seatOf(t, enterprise.token);
    await sleep(300);
    expect(after.received.filter((m) => m.type === 'callStart')).toEqual([]);
    for (const peer of [terminal, late, stranger, after]) peer.close();
  });
});
