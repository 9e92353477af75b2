import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { createAccount, createEnterprise, loginRaw } from '../helper.js';
import { useTestApp } from '../useTestApp.js';

// Issue 50, goal 2: the console login lock (DESIGN.md section 4: 5 wrong passwords in a row lock
// for 15 minutes) as a table in fake time, for a known account (counted in its row) and for a name
// no account has (counted by the throttle, so the lock never tells which names exist). Each row:
// logins at times (ms from the row's start) → the answer: 'ok', 'wrong', or 'locked <minutes>'.
const min = 60_000;
const LOCK = 15 * min;

type Step = [at: number, password: 'right' | 'wrong', answer: string];

const fiveWrong: Step[] = [0, 1, 2, 3].map((i): Step => [i * 1000, 'wrong', 'wrong']);

const TABLE: { name: string; who: 'known' | 'unknown'; steps: Step[] }[] = [
  {
    name: 'a known account locks at the fifth wrong password, for 15 minutes, the right one included',
    who: 'known',
    steps: [
      ...fiveWrong,
      [4000, 'wrong', 'locked 15'],
      [min, 'right', 'locked 15'],
      [4000 + LOCK - 1, 'right', 'locked 1'],
      [4000 + LOCK, 'right', 'ok'],
    ],
  },
  {
    name: 'a right password resets the count',
    who: 'known',
    steps: [...fiveWrong, [4000, 'right', 'ok'], ...fiveWrong.map(([at, p, a]): Step => [5000 + at, p, a])],
  },
  {
    name: 'the lock runs from the fifth failure, not the first',
    who: 'known',
    steps: [
      [0, 'wrong', 'wrong'],
      [10 * min, 'wrong', 'wrong'],
      [20 * min, 'wrong', 'wrong'],
      [30 * min, 'wrong', 'wrong'],
      [40 * min, 'wrong', 'locked 15'],
      [40 * min + LOCK - 1, 'right', 'locked 1'],
      [40 * min + LOCK, 'right', 'ok'],
    ],
  },
  {
    name: 'an unknown name locks the same way, and its lock ends the same way',
    who: 'unknown',
    steps: [
      ...fiveWrong,
      [4000, 'wrong', 'locked 15'],
      [min, 'wrong', 'locked 15'],
      [4000 + LOCK - 1, 'wrong', 'locked 1'],
      [4000 + LOCK, 'wrong', 'wrong'],
    ],
  },
];

const clock = new FakeClock(Date.now());
const t = useTestApp({ clock });

async function run(who: 'known' | 'unknown', steps: Step[]): Promise<string[]> {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, password: 'Right#2026pw' });
  const username = who === 'known' ? account.username : `nobody${account.A_ID}`;
  const start = clock.now();
  const answers: string[] = [];
  for (const [at, password] of steps) {
    // Time jumps: the lock is judged when a login comes (the envelope carries the same, fake, time).
    clock.stall(start + at - clock.now());
    const res = await loginRaw(t.app, {
      username,
      password: password === 'right' ? account.password : 'Wrong#2026pw',
      code: enterprise.code,
      time: clock.now(),
    });
    const body = res.json<{ Message: string; BaseResult: { Params?: { minutes?: number } } }>();
    if (res.statusCode === 200) answers.push('ok');
    else if (body.Message === 'login.locked') answers.push(`locked ${body.BaseResult.Params?.minutes}`);
    else answers.push(body.Message === 'login.wrong_credentials' ? 'wrong' : `${res.statusCode} ${body.Message}`);
  }
  return answers;
}

describe('the console login lock, in fake time', () => {
  it.each(TABLE)('$name', async ({ who, steps }) => {
    expect(await run(who, steps)).toEqual(steps.map(([, , answer]) => answer));
  });
});
