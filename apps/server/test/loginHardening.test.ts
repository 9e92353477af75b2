import { TerminalErrors } from '@intercom/contract';
import { Redis } from 'ioredis';
import crypto, { randomBytes } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/passwords.js';
import { createAccount, createEnterprise, expectFailure, login, loginRaw } from './helper.js';
import {
  FAST_TERMINALS,
  TERMINAL_PASSWORD,
  TestTerminal,
  createTerminalUser,
  startTerminalApp,
} from './terminals/terminalTestApp.js';
import { useTestApp } from './useTestApp.js';

/** Issue 16: nothing in a login's answer, its time or its lock tells which accounts exist. */

/**
 * The N of every scrypt call this file's server made, in order. Node's own `scrypt` is wrapped for
 * this file's tests and put back after: the server's modules read it from the `node:crypto` they
 * share with this file (Node updates a built-in's named exports on `syncBuiltinESMExports`), so the
 * wrapper is seen even by modules an earlier test file of this worker loaded (no isolation here).
 */
const scryptCalls: number[] = [];
const realScrypt = crypto.scrypt;
beforeAll(() => {
  crypto.scrypt = (...args: unknown[]) => {
    const options = args.length === 5 ? (args[3] as { N?: number }) : {};
    scryptCalls.push(options.N ?? 16384);
    return (realScrypt as (...a: unknown[]) => void)(...args);
  };
  syncBuiltinESMExports();
});
afterAll(() => {
  crypto.scrypt = realScrypt;
  syncBuiltinESMExports();
});

const t = useTestApp();

async function freshAccount() {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID });
  return { ...enterprise, ...account };
}

const unknownName = () => `nobody${randomBytes(4).toString('hex')}`;

/**
 * The scrypt costs (N) of the password checks one try made. The checks are counted, not timed: what
 * would give away that a name or phone exists is a try that skipped the hash or paid a different
 * cost, and a count says that exactly, whatever the machine's load (issue 50: no test asserts a
 * wall-clock bound). `node:crypto` is the real one; its `scrypt` is only watched (above).
 */
async function scryptCostsOf(attempt: () => Promise<unknown>): Promise<number[]> {
  const from = scryptCalls.length;
  await attempt();
  return scryptCalls.slice(from);
}

describe('login work', () => {
  it('checks a password at the same cost for a known account with a wrong password as for an unknown name or company', async () => {
    // A cost apart from the tests' fast default, so the dummy hash is seen to follow the setting.
    const logN = 12;
    const restore = t.deps.passwordLogN;
    t.deps.passwordLogN = logN;
    try {
      const a = await freshAccount();
      await t.db
        .updateTable('account')
        .set({ PasswordHash: await hashPassword(a.password, logN) })
        .where('A_ID', '=', a.A_ID)
        .execute();
      const wrong = { password: 'Wrong#pass1' };
      const tries = {
        known: () => loginRaw(t.app, { ...wrong, username: a.username, code: a.code }),
        unknown: () => loginRaw(t.app, { ...wrong, username: unknownName(), code: a.code }),
        noCompany: () => loginRaw(t.app, { ...wrong, username: a.username, code: `NO${unknownName()}` }),
      };
      await tries.unknown(); // the dummy hash of this cost is made on first use: not a check
      const statuses = new Set<number>();
      for (const [kind, attempt] of Object.entries(tries)) {
        let status = 0;
        const costs = await scryptCostsOf(async () => (status = (await attempt()).statusCode));
        expect({ kind, costs }).toEqual({ kind, costs: [2 ** logN] });
        statuses.add(status);
      }
      // ...and they are answered alike (the answers' texts are the next tests' subject).
      expect(statuses.size).toBe(1);
      // The right password costs the same single check, so a wrong one is not told by its cost either.
      expect(await scryptCostsOf(() => login(t.app, a))).toEqual([2 ** logN]);
    } finally {
      t.deps.passwordLogN = restore;
    }
  });
});

describe('terminal login work', () => {
  const terminals = useTestApp(() => startTerminalApp(FAST_TERMINALS));

  it('checks a password at the same cost to refuse an unknown phone as a known phone with a wrong password', async () => {
    // Before the unknown phone paid a check too, it was answered in about 1 ms: a list of phones could be tested.
    const logN = 12;
    const restore = terminals.deps.passwordLogN;
    terminals.deps.passwordLogN = logN;
    let fresh = 0;
    const unknownPhone = () => `1${String(Date.now() + (fresh += 1)).slice(-10)}`;
    try {
      /** One wrong login on a new connection: its answer and the scrypt costs it paid. */
      const wrongLogin = async (phone: string) => {
        const terminal = await TestTerminal.connect(terminals);
        try {
          let answer: unknown;
          const costs = await scryptCostsOf(async () => (answer = await terminal.login(phone, 'Wrong#pass1')));
          return { answer, costs };
        } finally {
          terminal.close();
        }
      };
      await wrongLogin(unknownPhone()); // the dummy hash of this cost is made on first use
      const user = await createTerminalUser(terminals, { E_ID: terminals.demo.E_ID });
      await terminals.db
        .updateTable('terminal_user')
        .set({ PasswordHash: await hashPassword(TERMINAL_PASSWORD, logN) })
        .where('UserID', '=', user.U_ID)
        .execute();
      const refused = { answer: expect.objectContaining({ code: TerminalErrors.badCredentials }), costs: [2 ** logN] };
      expect(await wrongLogin(user.phone)).toEqual(refused);
      expect(await wrongLogin(unknownPhone())).toEqual(refused);
    } finally {
      terminals.deps.passwordLogN = restore;
    }
  });
});

describe('lock state of unknown names', () => {
  /** Status, code, message and params of six wrong logins in a row. */
  async function sixWrong(username: string, code: string) {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const res = await loginRaw(t.app, { username, password: 'Wrong#pass1', code });
      const body = res.json<{ Code: number; Message: string; BaseResult: { Params?: unknown } }>();
      answers.push([res.statusCode, body.Code, body.Message, body.BaseResult.Params ?? null]);
    }
    return answers;
  }

  it('locks an unknown name or company after five failures, answering exactly as for a known account', async () => {
    const a = await freshAccount();
    const knownAnswers = await sixWrong(a.username, a.code);
    expect(knownAnswers.map(([status]) => status)).toEqual([403, 403, 403, 403, 429, 429]);
    expect(knownAnswers[4]).toEqual([429, 4029, 'login.locked', { minutes: 15 }]);
    expect(await sixWrong(unknownName(), a.code)).toEqual(knownAnswers);
    expect(await sixWrong(a.username, `NO${unknownName()}`)).toEqual(knownAnswers);
  });

  it('keeps each unknown name apart, and the right password of a real account still works', async () => {
    const a = await freshAccount();
    await sixWrong(unknownName(), a.code);
    const other = await loginRaw(t.app, { username: unknownName(), password: 'Wrong#pass1', code: a.code });
    expectFailure(other, 403, 4003, 'login.wrong_credentials');
    const real = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expect(real.statusCode, real.body).toBe(200);
  });

  it('logs the failures of unknown names under the known enterprise, the lock included', async () => {
    const a = await freshAccount();
    const name = unknownName();
    await sixWrong(name, a.code);
    const rows = await t.db
      .selectFrom('sys_log')
      .select(['Operator', 'Summary'])
      .where('E_ID', '=', a.E_ID)
      .where('Action', '=', 'login_failed')
      .orderBy('L_ID')
      .execute();
    expect(rows.map((r) => [r.Operator, (JSON.parse(r.Summary) as { reason: string }).reason])).toEqual([
      ...Array.from({ length: 5 }, () => [name, 'unknown_account']),
      [name, 'locked'],
    ]);
  });
});

describe('atomic bookkeeping', () => {
  it('counts every one of simultaneous wrong passwords', async () => {
    const a = await freshAccount();
    const wrong = () => loginRaw(t.app, { username: a.username, password: 'Wrong#pass1', code: a.code });
    const answers = await Promise.all([wrong(), wrong(), wrong(), wrong()]);
    expect(answers.map((r) => r.statusCode)).toEqual([403, 403, 403, 403]);
    const row = await t.db
      .selectFrom('account')
      .select('FailedCount')
      .where('A_ID', '=', a.A_ID)
      .executeTakeFirstOrThrow();
    expect(Number(row.FailedCount)).toBe(4);
    const fifth = await wrong();
    expectFailure(fifth, 429, 4029, 'login.locked');
  });

  it('leaves exactly one live session after two simultaneous logins of one account', async () => {
    const a = await freshAccount();
    const input = { username: a.username, password: a.password, code: a.code };
    const tokens = await Promise.all([login(t.app, input), login(t.app, input), login(t.app, input)]);
    expect(new Set(tokens.map((x) => x.access_token)).size).toBe(3);
    const live = await t.db
      .selectFrom('session')
      .select('S_ID')
      .where('A_ID', '=', a.A_ID)
      .where('EndedAt', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    const ended = await t.db
      .selectFrom('session')
      .select('EndReason')
      .where('A_ID', '=', a.A_ID)
      .where('EndedAt', 'is not', null)
      .execute();
    expect(ended.map((r) => r.EndReason)).toEqual(['replaced', 'replaced']);
  });
});

describe('unknown names with REDIS_URL', () => {
  const url = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
  const shared = useTestApp({ env: { REDIS_URL: url } });
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(url);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('counts them in Redis (INCR), where every instance sees the lock', async () => {
    const enterprise = await createEnterprise(shared.db);
    const name = unknownName();
    const key = `intercom:console-login:fail:${enterprise.code}\u0000${name}`;
    const wrong = () => loginRaw(shared.app, { username: name, password: 'Wrong#pass1', code: enterprise.code });
    await Promise.all([wrong(), wrong(), wrong()]);
    expect(await redis.get(key)).toBe('3');
    expect(await redis.pttl(key)).toBeGreaterThan(14 * 60_000);
    await wrong();
    expectFailure(await wrong(), 429, 4029, 'login.locked');
    const lock = `intercom:console-login:lock:${enterprise.code}\u0000${name}`;
    expect(await redis.pttl(lock)).toBeGreaterThan(14 * 60_000);
    await redis.del(lock);
  });
});
