import { TerminalErrors, TerminalLimits } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { FAST_TERMINALS, createTerminalUser, fix, loggedIn, startTerminalApp } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// The `positions` message: a terminal's stored-up fixes after a tunnel, all stored or none.
const t = useTestApp(() => startTerminalApp(FAST_TERMINALS));

const newUser = () => createTerminalUser(t, { E_ID: t.demo.E_ID });
const stored = async (U_ID: number) => {
  await t.terminals.service.writer.flush();
  return t.db.selectFrom('location_history').select(['H_Time']).where('U_ID', '=', U_ID).execute();
};
/** A fix with every field at full double precision: the largest a real terminal sends. */
const fullFix = (time: number) => ({
  lat: -22.123456789012344,
  lon: -114.1234567890123,
  time,
  speed: 123.45678901234567,
  course: 270.1234567890123,
  accuracy: 5.123456789012345,
  altitude: 1234.5678901234567,
  fixType: 0,
});

describe('positions batch', () => {
  it('stores 100 fixes at full precision with one ack, in history and the newest live', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const base = Date.now() - 200_000;
    const fixes = Array.from({ length: TerminalLimits.fixesPerBatch }, (_, i) => fullFix(base + i * 1000));
    expect(TerminalLimits.fixesPerBatch).toBe(100);
    expect(await terminal.request({ type: 'positions', fixes })).toMatchObject({ type: 'ack', stored: 100 });
    expect(terminal.received.filter((m) => m.type === 'ack')).toHaveLength(2); // login + the batch
    expect(await stored(U_ID)).toHaveLength(100);
    expect(t.live.user(t.demo.E_ID, U_ID)?.position).toMatchObject({ time: base + 99_000 });
    terminal.close();
  });

  it('keeps the live position when a backlog is older than the newest fix, and stores it all', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const now = Date.now();
    expect(await terminal.request({ type: 'position', ...fix(now, 22.6) })).toMatchObject({ type: 'ack' });
    const backlog = [fix(now - 3000, 22.1), fix(now - 2000, 22.2), fix(now - 1000, 22.3)];
    expect(await terminal.request({ type: 'positions', fixes: backlog })).toMatchObject({ type: 'ack', stored: 3 });
    expect(t.live.user(t.demo.E_ID, U_ID)?.position).toMatchObject({ time: now, lat: 22.6 });
    expect(await stored(U_ID)).toHaveLength(4);
    terminal.close();
  });

  const refusals: [string, (now: number) => Record<string, unknown>, string | undefined][] = [
    ['an empty batch', () => ({ fixes: [] }), 'fixes'],
    ['101 fixes', (now) => ({ fixes: Array.from({ length: 101 }, (_, i) => fix(now - i)) }), 'fixes'],
    [
      'one bad fix among good ones',
      (now) => ({ fixes: [fix(now - 2), { ...fix(now - 1), lat: 91 }, fix(now)] }),
      'fixes.1.lat',
    ],
    ['a fix from the future', (now) => ({ fixes: [fix(now), fix(now + 3_600_000)] }), 'fixes.1.time'],
    ['fixes that are not an array', (now) => ({ fixes: fix(now) }), 'fixes'],
    ['no fixes at all', () => ({}), 'fixes'],
    ['a fix that is not an object', (now) => ({ fixes: [fix(now), 'here'] }), 'fixes.1'],
    ['a coordinate as a string', (now) => ({ fixes: [{ ...fix(now), lon: '114.05' }] }), 'fixes.0.lon'],
  ];

  it.each(refusals)('refuses %s with `invalid` naming the field, and stores nothing of it', async (_, body, field) => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const reply = await terminal.request({ type: 'positions', ...body(Date.now()) });
    expect(reply).toMatchObject({ type: 'error', code: TerminalErrors.invalid, field });
    expect(await stored(U_ID)).toHaveLength(0);
    expect(t.live.user(t.demo.E_ID, U_ID)?.position ?? null).toBeNull();
    // The connection goes on: the next batch is stored.
    expect(await terminal.request({ type: 'positions', fixes: [fix()] })).toMatchObject({ type: 'ack', stored: 1 });
    expect(await stored(U_ID)).toHaveLength(1);
    terminal.close();
  });

  it('refuses a batch larger than a frame may be with `too_large`, and stores nothing', async () => {
    const { phone, U_ID } = await newUser();
    const terminal = await loggedIn(t, phone);
    const padded = Array.from({ length: 100 }, (_, i) => ({ ...fullFix(Date.now() - i), note: 'x'.repeat(400) }));
    // An oversize frame is not read, so its seq is unknown: the error carries `seq: null`.
    terminal.send({ type: 'positions', fixes: padded });
    await terminal.next((m) => m.type === 'error' && m.code === TerminalErrors.tooLarge && m.seq === null);
    expect(await stored(U_ID)).toHaveLength(0);
    terminal.close();
  });
});
