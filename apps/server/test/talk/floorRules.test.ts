import { encodeAudioUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { FAST_HUB } from '../hub/hubTestApp.js';
import { FAST_TERMINALS, startTerminalApp, type TestTerminal } from '../terminals/terminalTestApp.js';
import { SPEECH, isType, joinedChannel, waitFor } from './talkFixtures.js';
import { useTestApp } from '../useTestApp.js';

// The floor's timing rules in fake time (issue 50, goal 2), with the production limits: silence
// (2 s without audio), maximum talk time (the enterprise's 60 s) and the stalled-loop rule
// (docs/decisions.md "Floor leases survive a stall"). Each row is a script of events at times and
// the outcome: minutes of talk run in milliseconds. Frames still travel over a real socket; the
// clock moves only when a row says so, and only after the server has relayed the frame before.
type Step =
  /** The talker sends one audio frame (waits until the listener got it, so the server saw it). */
  | { frame: true }
  /** Time moves on `ms`, the talk tick running every 50 ms of it. */
  | { advance: number }
  /** Time moves on `ms` and no timer runs: the server's event loop is stalled. */
  | { stall: number };

interface Row {
  rule: string;
  steps: Step[];
  /** What the talker was told at the end: still holding, or revoked with this reason. */
  outcome: 'held' | 'silence' | 'timeout';
}

const every = (ms: number, count: number): Step[] =>
  Array.from({ length: count }, () => [{ frame: true } as const, { advance: ms }]).flat();

const ROWS: Row[] = [
  { rule: 'audio every 500 ms keeps the floor', steps: every(500, 12), outcome: 'held' },
  { rule: '1,950 ms without audio is not yet silence', steps: [{ frame: true }, { advance: 1_950 }], outcome: 'held' },
  { rule: '2,050 ms without audio is silence', steps: [{ frame: true }, { advance: 2_050 }], outcome: 'silence' },
  {
    rule: 'the 60 s maximum talk time ends a burst that never paused',
    steps: every(1_000, 60),
    outcome: 'timeout',
  },
  { rule: '59 s of talk is within the maximum', steps: every(1_000, 59), outcome: 'held' },
  {
    rule: 'a 2 s stall of the event loop is not silence: the first tick after it judges nothing',
    steps: [{ frame: true }, { advance: 500 }, { stall: 2_000 }, { advance: 0 }, { frame: true }, { advance: 100 }],
    outcome: 'held',
  },
  {
    rule: 'a loop that stays slow is still timed: two late ticks in a row judge silence',
    steps: [{ frame: true }, { advance: 500 }, { stall: 2_000 }, { advance: 0 }, { stall: 300 }, { advance: 0 }],
    outcome: 'silence',
  },
];

const t = useTestApp(() =>
  startTerminalApp({ ...FAST_TERMINALS, heartbeatTimeoutMs: 60_000 }, FAST_HUB, {}, { clock }),
);
const clock = new FakeClock();

async function play(steps: Step[], talker: TestTerminal, listener: TestTerminal, cid: number): Promise<void> {
  let seq = 0;
  for (const step of steps) {
    if ('frame' in step) {
      const heard = listener.frames.length;
      talker.socket.send(encodeAudioUp({ cid, seq: seq++, opus: SPEECH[seq % SPEECH.length] as Buffer }), {
        binary: true,
      });
      await waitFor(() => listener.frames.length > heard);
    } else if ('advance' in step) await clock.advance(step.advance);
    else clock.stall(step.stall);
  }
}

describe('floor timing rules, in fake time', () => {
  it.each(ROWS)('$rule', async ({ steps, outcome }) => {
    const { cid, terminals } = await joinedChannel(t, t.demo.E_ID, [0, 0]);
    const [talker, listener] = terminals;
    expect(await talker.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await listener.next(isType('floorTaken', { cid }));

    await play(steps, talker, listener, cid);

    if (outcome === 'held') {
      // Let any revocation the last step caused arrive, then check none did.
      expect(await talker.request({ type: 'heartbeat' })).toMatchObject({ type: 'ack' });
      expect(talker.received.filter(isType('floorRevoked'))).toEqual([]);
      expect(listener.received.filter(isType('floorIdle'))).toEqual([]);
    } else {
      await talker.next(isType('floorRevoked', { cid, reason: outcome }));
      await listener.next(isType('floorIdle', { cid }));
    }
    for (const terminal of [talker, listener]) terminal.close();
  });
});
