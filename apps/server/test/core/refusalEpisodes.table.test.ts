import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { RefusalEpisodes, type RefusalEpisode, type RefusalKind } from '../../src/core/refusalEpisodes.js';

// Issue 50, goal 2: a connection's refused frames grouped into episodes, as a table in fake time. An
// episode starts at a refusal and ends `QUIET` ms after the last one (or when the socket closes), and
// costs one log line when it ends: its count, its kinds, its span from first to last, and whether the
// socket closed. Each row: refusals (or a close) at times → the episodes logged, in order.
const QUIET = 2_000;

type Step = { refuse: RefusalKind } | { advance: number } | { close: true };

interface Row {
  rule: string;
  steps: Step[];
  episodes: RefusalEpisode[];
}

const refusals = (kind: RefusalKind, count: number, every: number): Step[] =>
  Array.from({ length: count }, () => [{ refuse: kind } as const, { advance: every }]).flat();

const ROWS: Row[] = [
  { rule: 'no refusal: no episode', steps: [{ advance: 10 * QUIET }], episodes: [] },
  {
    rule: 'one refusal: one episode, logged once the quiet time has passed',
    steps: [{ refuse: 'badFrames' }, { advance: QUIET }],
    episodes: [{ refused: 1, kinds: { badFrames: 1 }, ms: 0, closed: false }],
  },
  {
    rule: 'one refusal, 1 ms short of the quiet time: not yet logged',
    steps: [{ refuse: 'badFrames' }, { advance: QUIET - 1 }],
    episodes: [],
  },
  {
    rule: 'refusals closer than the quiet time: one episode however long the flood',
    steps: [...refusals('messages', 10, QUIET - 1), { advance: QUIET }],
    episodes: [{ refused: 10, kinds: { messages: 10 }, ms: 9 * (QUIET - 1), closed: false }],
  },
  {
    rule: 'the quiet time counts from the last refusal, not the first',
    steps: [{ refuse: 'audioOverRate' }, { advance: QUIET - 500 }, { refuse: 'audioOverRate' }, { advance: QUIET - 1 }],
    episodes: [],
  },
  {
    rule: 'two floods apart by the quiet time: two episodes',
    steps: [
      ...refusals('audioNoFloor', 3, 100),
      { advance: QUIET },
      ...refusals('videoOverRate', 2, 100),
      { advance: QUIET },
    ],
    episodes: [
      { refused: 3, kinds: { audioNoFloor: 3 }, ms: 200, closed: false },
      { refused: 2, kinds: { videoOverRate: 2 }, ms: 100, closed: false },
    ],
  },
  {
    rule: 'kinds are counted apart within one episode',
    steps: [{ refuse: 'videoNoRights' }, { refuse: 'videoUnwatched' }, { refuse: 'videoNoRights' }, { advance: QUIET }],
    episodes: [{ refused: 3, kinds: { videoNoRights: 2, videoUnwatched: 1 }, ms: 0, closed: false }],
  },
  {
    rule: 'the socket closes mid-episode: logged at once as closed, and nothing more after',
    steps: [...refusals('messages', 4, 10), { close: true }, { advance: 5 * QUIET }],
    episodes: [{ refused: 4, kinds: { messages: 4 }, ms: 30, closed: true }],
  },
  { rule: 'the socket closes with no episode: nothing logged', steps: [{ close: true }], episodes: [] },
];

describe('refusal episodes (fake time)', () => {
  it.each(ROWS)('$rule', async ({ steps, episodes }) => {
    const clock = new FakeClock();
    const logged: RefusalEpisode[] = [];
    const refusalEpisodes = new RefusalEpisodes(QUIET, (episode) => logged.push(episode), clock);
    for (const step of steps) {
      if ('refuse' in step) refusalEpisodes.refuse(step.refuse, clock.now());
      else if ('close' in step) refusalEpisodes.end();
      else await clock.advance(step.advance);
    }
    expect(logged).toEqual(episodes);
  });

  it('allows one error reply per episode, and one again in the next', async () => {
    const clock = new FakeClock();
    const refusalEpisodes = new RefusalEpisodes(QUIET, () => undefined, clock);
    const replies = () => {
      refusalEpisodes.refuse('messages', clock.now());
      return [refusalEpisodes.reply(), refusalEpisodes.reply()];
    };
    expect(replies()).toEqual([true, false]);
    await clock.advance(QUIET);
    expect(replies()).toEqual([true, false]);
  });

  it('returns the count of the episode so far (what the flood threshold is judged on)', () => {
    const clock = new FakeClock();
    const refusalEpisodes = new RefusalEpisodes(QUIET, () => undefined, clock);
    expect([1, 2, 3].map(() => refusalEpisodes.refuse('badFrames', clock.now()))).toEqual([1, 2, 3]);
  });
});
