import { describe, expect, it } from 'vitest';
import { authed, loginAdmin } from '../helper.js';
import { startScaleOut } from '../terminals/scaleOutApps.js';
import { TestTerminal, loggedIn } from '../terminals/terminalTestApp.js';
import { FAST_TALK, SPEECH, TALK_TERMINALS, isType, readDown, talk, waitFor } from './talkFixtures.js';
import { useTestApp } from '../useTestApp.js';

// An emergency call across two instances on the real Redis: the terminal on A, the seat on B.
const s = useTestApp(() => startScaleOut(TALK_TERMINALS, { ...FAST_TALK, callAnswerMs: 300 }));

/** The demo admin's seat on B (B reads A's sessions when the databases are apart). */
async function seatOnB(): Promise<TestTerminal> {
  const api = authed(s.a.app, await loginAdmin(s.a));
  if (!s.shared) {
    const rows = await s.a.db.selectFrom('session').selectAll().execute();
    await s.b.db.deleteFrom('session').execute();
    await s.b.db.insertInto('session').values(rows).execute();
  }
  const { authCode } = (await api.post('/api/Talk/AuthCode', {})).json<{ BaseData: { authCode: string } }>().BaseData;
  const seat = await TestTerminal.connect(s.b);
  expect(await seat.request({ type: 'login', authCode })).toMatchObject({ type: 'ack' });
  return seat;
}

describe('an emergency call across instances', () => {
  it('reaches a seat on another instance: one floor, audio both ways, ended by the dispatcher', async () => {
    const seat = await seatOnB();
    const user = await s.user();
    const terminal = await loggedIn(s.a, user.phone);
    expect(await terminal.request({ type: 'sos' })).toMatchObject({ type: 'ack' });
    const start = await terminal.next(isType('callStart', { emergency: true }));
    const cid = Number(start.cid);
    expect(await seat.next(isType('callStart', { cid }))).toMatchObject({ from: user.U_ID, emergency: true });
    expect(await seat.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(seat, cid, SPEECH.slice(0, 3), 2);
    await waitFor(() => terminal.frames.length === 3);
    expect(readDown(terminal.frames[0] as Buffer)).toMatchObject({ cid, speaker: 0 });
    // The terminal cuts the seat off across instances.
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await seat.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    seat.frames.length = 0;
    await talk(terminal, cid, SPEECH.slice(0, 3), 2);
    await waitFor(() => seat.frames.length === 3);
    expect(readDown(seat.frames[0] as Buffer)).toMatchObject({ cid, speaker: user.U_ID });
    expect(await seat.request({ type: 'hangup', cid })).toMatchObject({ type: 'ack' });
    await terminal.next(isType('callEnd', { cid }));
    seat.close();
    terminal.close();
  });
});
