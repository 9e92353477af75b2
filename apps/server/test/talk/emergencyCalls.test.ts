import { CALL_ID_BASE, TalkErrors } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { insertNotification } from '../../src/modules/notify/index.js';
import { accountSession, enterpriseWithAccount } from '../helper.js';
import { sleep } from '../hub/hubTestApp.js';
import { createTerminalUser, loggedIn, type ServerMessage, type TestTerminal } from '../terminals/terminalTestApp.js';
import { SPEECH, isType, readDown, seatOf, talk, useTalkApp, waitFor } from './talkFixtures.js';

// An SOS (or ManDown) opens an emergency call between the terminal and the seats whose scope holds it.
const t = useTalkApp();

/** An enterprise with two dispatcher seats and a terminal, plus a seat of another enterprise. */
async function scene(record = false) {
  const enterprise = await enterpriseWithAccount(t, { role: 'admin' });
  if (record) {
    await t.db
      .insertInto('sys_config')
      .values({ E_ID: enterprise.E_ID, Code: 'RecordEnable', Value: 'TRUE' })
      .execute();
  }
  const second = await accountSession(t, enterprise, 'admin');
  const foreign = await enterpriseWithAccount(t, { role: 'admin' });
  const user = await createTerminalUser(t, { E_ID: enterprise.E_ID });
  const seats = [await seatOf(t, enterprise.token), await seatOf(t, second.token)] as const;
  const stranger = await seatOf(t, foreign.token);
  const terminal = await loggedIn(t, user.phone);
  const close = () => [...seats, stranger, terminal].forEach((s) => s.close());
  return { enterprise, user, seats, stranger, terminal, close };
}

const callStart = (m: ServerMessage) => m.type === 'callStart';

/** The terminal sends `sos`; resolves with the call's cid once the terminal is told. */
async function sos(terminal: TestTerminal): Promise<number> {
  expect(await terminal.request({ type: 'sos', text: 'help' })).toMatchObject({ type: 'ack' });
  const start = await terminal.next(isType('callStart', { emergency: true }));
  return Number(start.cid);
}

describe('emergency calls', () => {
  it('an SOS opens a call to every seat of the scope, none elsewhere; a second SOS opens no second call', async () => {
    const { user, seats, stranger, terminal, close } = await scene();
    const cid = await sos(terminal);
    expect(cid).toBeGreaterThanOrEqual(CALL_ID_BASE);
    expect(terminal.received.find(callStart)).toEqual({ type: 'callStart', cid, emergency: true });
    for (const seat of seats) {
      const start = await seat.next(callStart);
      expect(start).toEqual({ type: 'callStart', cid, from: user.U_ID, name: expect.any(String), emergency: true });
      expect(start.name).not.toBe('');
    }
    expect(await terminal.request({ type: 'sos', text: 'again' })).toMatchObject({ type: 'ack' });
    await sleep(150);
    expect(stranger.received.filter(callStart)).toEqual([]);
    expect(terminal.received.filter(callStart)).toHaveLength(1);
    for (const seat of seats) expect(seat.received.filter(callStart)).toHaveLength(1);
    close();
  });

  it('a ManDown alarm opens the call the same way', async () => {
    const { enterprise, user, seats, terminal, close } = await scene();
    const alarm = await insertNotification(t.db, {
      E_ID: enterprise.E_ID,
      U_ID: user.U_ID,
      Phone: user.phone,
      NType: 'ManDown',
      Content: 'fall',
      Latitude: null,
      Longitude: null,
      CreatedAt: Date.now(),
    });
    t.deps.realtime.live.raiseNotification(alarm);
    const start = await terminal.next(isType('callStart', { emergency: true }));
    await seats[0].next(isType('callStart', { cid: start.cid, from: user.U_ID, emergency: true }));
    // The same alarm pushed again (acknowledged, or once more) opens nothing new.
    t.deps.realtime.live.raiseNotification({ ...alarm, State: 'handled' });
    t.deps.realtime.live.raiseNotification(alarm);
    await sleep(100);
    expect(terminal.received.filter(callStart)).toHaveLength(1);
    close();
  });

  it("a terminal's manDown message opens the call too", async () => {
    const { user, seats, terminal, close } = await scene();
    expect(await terminal.request({ type: 'manDown', lat: 22.5, lon: 114.1 })).toMatchObject({ type: 'ack' });
    const start = await terminal.next(isType('callStart', { emergency: true }));
    await seats[1].next(isType('callStart', { cid: start.cid, from: user.U_ID, emergency: true }));
    close();
  });

  it('the terminal takes the floor over a talking seat; both sides hear each other in the call', async () => {
    const { seats, terminal, close } = await scene();
    const cid = await sos(terminal);
    const [first, second] = seats;
    await first.next(callStart);
    // Every seat hears the call at once; the one that answers talks in it.
    expect(await first.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(first, cid, SPEECH.slice(0, 3));
    await waitFor(() => terminal.frames.length === 3 && second.frames.length === 3);
    expect(readDown(terminal.frames[0] as Buffer)).toMatchObject({ cid, speaker: 0 });
    // Another seat cannot cut in; the terminal can.
    expect(await second.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.busy });
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await first.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    await second.next(isType('floorTaken', { cid, priority: 8 }));
    second.frames.length = 0;
    await talk(terminal, cid, SPEECH.slice(0, 4));
    await waitFor(() => second.frames.length === 4 && first.frames.length >= 4);
    expect(readDown(second.frames[0] as Buffer).cid).toBe(cid);
    close();
  });

  it('the terminal hanging up ends the call for every seat; the next SOS opens a new one', async () => {
    const { seats, terminal, close } = await scene();
    const cid = await sos(terminal);
    expect(await terminal.request({ type: 'hangup', cid })).toMatchObject({ type: 'ack' });
    for (const seat of seats) await seat.next(isType('callEnd', { cid }));
    expect(await seats[0].request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.notFound });
    terminal.received.length = 0;
    const next = await sos(terminal);
    expect(next).not.toBe(cid);
    close();
  });

  it('a dispatcher ending it tells the terminal and the other seats', async () => {
    const { seats, terminal, close } = await scene();
    const cid = await sos(terminal);
    await seats[1].next(callStart);
    expect(await seats[0].request({ type: 'hangup', cid })).toMatchObject({ type: 'ack' });
    await terminal.next(isType('callEnd', { cid }));
    await seats[1].next(isType('callEnd', { cid }));
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.notFound });
    close();
  });

  it('a seat that goes only leaves: the call goes on with the terminal and the other seat', async () => {
    const { seats, terminal, close } = await scene();
    const cid = await sos(terminal);
    await seats[1].next(callStart);
    seats[1].close();
    await sleep(100);
    expect(terminal.received.filter((m) => m.type === 'callEnd')).toEqual([]);
    expect(seats[0].received.filter((m) => m.type === 'callEnd')).toEqual([]);
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(terminal, cid, SPEECH.slice(0, 2));
    await waitFor(() => seats[0].frames.length === 2);
    close();
  });

  it('refuses a hangup of a call that is not yours, and changes nothing', async () => {
    const { seats, stranger, terminal, close } = await scene();
    const cid = await sos(terminal);
    expect(await stranger.request({ type: 'hangup', cid })).toMatchObject({ code: TalkErrors.notFound });
    expect(await stranger.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.notFound });
    expect(await terminal.request({ type: 'hangup', cid: cid + 1 })).toMatchObject({ code: TalkErrors.notFound });
    expect(await seats[0].request({ type: 'hangup', cid: 'x' })).toMatchObject({ code: 'invalid' });
    // Still open: the seat takes the floor in it.
    expect(await seats[0].request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    close();
  });

  it('records the call as private calls are, with the terminal as the other party', async () => {
    const { enterprise, user, seats, terminal, close } = await scene(true);
    const cid = await sos(terminal);
    await seats[0].next(callStart);
    expect(await seats[0].request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(seats[0], cid, SPEECH.slice(0, 10), 5);
    await seats[0].request({ type: 'floorRelease', cid });
    const rows = () => t.db.selectFrom('recording').selectAll().where('E_ID', '=', enterprise.E_ID).execute();
    let found: Awaited<ReturnType<typeof rows>> = [];
    for (let i = 0; i < 100 && found.length === 0; i += 1) {
      found = await rows();
      await sleep(20);
    }
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ CID: null, ToU_ID: user.U_ID, RType: 'private' });
    expect(found[0]?.SpeakerNo).toMatch(/^D\d+$/);
    close();
  });
});
