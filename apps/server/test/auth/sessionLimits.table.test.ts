import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { authed, call, createAccount, createEnterprise, login } from '../helper.js';
import { useTestApp } from '../useTestApp.js';

// Issue 50, goal 2: a console session's idle and absolute limits as a table in fake time (the app's
// clock is a FakeClock). Each row logs in at its start, then makes requests at times (minutes and
// ms from the login) and expects each answer: 'ok', or the code a client sees (50014 expired).
const IDLE_MINUTES = 30;
const ABSOLUTE_MINUTES = 8 * 60;
const min = 60_000;

type Step = [at: number, call: 'request' | 'refresh', answer: 'ok' | number];

const TABLE: { name: string; steps: Step[] }[] = [
  {
    name: 'a request within the idle limit keeps the session; the first past it ends the session for good',
    steps: [
      [0, 'request', 'ok'],
      [IDLE_MINUTES * min, 'request', 'ok'],
      [2 * IDLE_MINUTES * min + 1, 'request', 50014],
      [2 * IDLE_MINUTES * min + 2, 'request', 50014],
    ],
  },
  {
    name: 'idle time counts from the last touch written, and a touch is written at most every 30 s',
    steps: [
      [0, 'request', 'ok'],
      [20_000, 'request', 'ok'],
      [IDLE_MINUTES * min + 10_000, 'request', 50014],
    ],
  },
  {
    name: 'activity never outlasts the absolute limit',
    steps: [
      ...Array.from({ length: 17 }, (_, i): Step => [i * 29 * min, 'request', 'ok']),
      [ABSOLUTE_MINUTES * min, 'request', 'ok'],
      [ABSOLUTE_MINUTES * min + 1, 'request', 50014],
    ],
  },
  {
    name: 'a refresh renews the idle limit; past it, a refresh is refused as well',
    steps: [
      [10 * min, 'refresh', 'ok'],
      [10 * min + IDLE_MINUTES * min, 'request', 'ok'],
      [20 * min + 2 * IDLE_MINUTES * min, 'refresh', 50014],
    ],
  },
];

const clock = new FakeClock(Date.now());
const t = useTestApp({
  clock,
  env: { SESSION_IDLE_MINUTES: String(IDLE_MINUTES), SESSION_ABSOLUTE_MINUTES: String(ABSOLUTE_MINUTES) },
});

function answerOf(res: LightMyRequestResponse): 'ok' | number {
  if (res.statusCode === 200) return 'ok';
  const body = res.json<{ Code?: number; BaseResult?: { Code: number } }>();
  return body.BaseResult?.Code ?? body.Code ?? res.statusCode;
}

async function run(steps: Step[]): Promise<('ok' | number)[]> {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role: 'admin', password: 'Start#2026pw' });
  const start = clock.now();
  // The login envelope carries the client's time: the fake one, so the clock check passes.
  let tokens = await login(t.app, {
    username: account.username,
    password: account.password,
    code: enterprise.code,
    time: start,
  });
  const answers: ('ok' | number)[] = [];
  for (const [at, kind] of steps) {
    // Time jumps (no timer of the app needs to run): the limits are judged when a request comes.
    clock.stall(start + at - clock.now());
    if (kind === 'request') {
      answers.push(answerOf(await authed(t.app, tokens.access_token).get('/api/Account/LoginInfo')));
      continue;
    }
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/UAuth/Refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
    answers.push(answerOf(res));
    if (res.statusCode === 200) tokens = { ...tokens, ...res.json<typeof tokens>() };
  }
  return answers;
}

describe('session idle and absolute limits, in fake time', () => {
  it.each(TABLE)('$name', async ({ steps }) => {
    expect(await run(steps)).toEqual(steps.map(([, , answer]) => answer));
  });
});
