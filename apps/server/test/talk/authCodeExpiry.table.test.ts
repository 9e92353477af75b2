import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { AuthCodes } from '../../src/talk/authCodes.js';

// Issue 50, goal 2: an AuthCode's life as a table in fake time (DESIGN.md section 7: valid for its
// TTL and for one login; asking again replaces the session's previous code). Each row: issues and
// redemptions at times (ms) → whether each redemption opened a seat.
const TTL = 60_000;

type Step = [at: number, kind: 'issue', session: number, name: string] | [at: number, kind: 'redeem', name: string];

const TABLE: { name: string; steps: Step[]; seats: boolean[] }[] = [
  {
    name: 'a code is good until its TTL has passed, not at it',
    steps: [
      [0, 'issue', 1, 'a'],
      [TTL - 1, 'redeem', 'a'],
      [0, 'issue', 2, 'b'],
      [TTL, 'redeem', 'b'],
    ],
    seats: [true, false],
  },
  {
    name: 'a code opens one seat only',
    steps: [
      [0, 'issue', 1, 'a'],
      [10, 'redeem', 'a'],
      [20, 'redeem', 'a'],
    ],
    seats: [true, false],
  },
  {
    name: 'asking again voids the session’s previous code, and the new one has a full TTL',
    steps: [
      [0, 'issue', 1, 'a'],
      [30_000, 'issue', 1, 'b'],
      [30_001, 'redeem', 'a'],
      [30_000 + TTL - 1, 'redeem', 'b'],
    ],
    seats: [false, true],
  },
  {
    name: 'codes of different sessions live side by side',
    steps: [
      [0, 'issue', 1, 'a'],
      [0, 'issue', 2, 'b'],
      [5, 'redeem', 'b'],
      [6, 'redeem', 'a'],
    ],
    seats: [true, true],
  },
  {
    name: 'an expired code left unredeemed is pruned when the next is issued, and stays refused',
    steps: [
      [0, 'issue', 1, 'a'],
      [TTL + 1, 'issue', 2, 'b'],
      [TTL + 2, 'redeem', 'a'],
      [TTL + 3, 'redeem', 'b'],
    ],
    seats: [false, true],
  },
];

describe('AuthCode expiry, in fake time', () => {
  it.each(TABLE)('$name', ({ steps, seats }) => {
    const clock = new FakeClock(0);
    const codes = new AuthCodes(TTL);
    const issued = new Map<string, string>();
    const opened: boolean[] = [];
    for (const step of [...steps].sort((x, y) => x[0] - y[0])) {
      clock.stall(step[0] - clock.now());
      if (step[1] === 'issue') {
        const [, , S_ID, name] = step;
        issued.set(name, codes.issue({ A_ID: 5, E_ID: 1, S_ID, name: 'D' }, clock.now()).authCode);
      } else {
        opened.push(codes.redeem(issued.get(step[2]) ?? '', clock.now()) !== undefined);
      }
    }
    expect(opened).toEqual(seats);
  });
});
