import { describe, expect, it } from 'vitest';
import {
  buildTestApp,
  encryptLogin,
  expectFailure,
  loginPayload,
  loginRaw,
  postLogin,
  publicKeyOf,
  sysLogOf,
} from './helper.js';
import { useLoginApp } from './loginFixtures.js';

const { t, freshAccount, form } = useLoginApp();

describe('account lock', () => {
  it('locks after 5 consecutive failures for 15 minutes, refuses the right password meanwhile, unlocks after', async () => {
    const a = await freshAccount();
    for (let i = 1; i <= 4; i++) {
      const res = await loginRaw(t.app, { username: a.username, password: `Wrong#pass${i}`, code: a.code });
      expectFailure(res, 403, 4003, 'login.wrong_credentials');
    }
    const fifth = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass5', code: a.code });
    const locked = expectFailure(fifth, 429, 4029, 'login.locked');
    expect(locked.BaseResult.Params).toEqual({ minutes: 15 });

    const stored = await t.db
      .selectFrom('account')
      .select('LockedUntil')
      .where('A_ID', '=', a.A_ID)
      .executeTakeFirstOrThrow();
    expect(Number(stored.LockedUntil) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Number(stored.LockedUntil) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    const rightWhileLocked = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    const refused = expectFailure(rightWhileLocked, 429, 4029, 'login.locked');
    expect(refused.BaseResult.Params).toEqual({ minutes: 15 });
    expect(rightWhileLocked.body).not.toContain('access_token');

    // Minutes left are rounded up: 7.5 minutes left reads 8.
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() + 7.5 * 60_000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const later = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expect(expectFailure(later, 429, 4029, 'login.locked').BaseResult.Params).toEqual({ minutes: 8 });

    // The 15 minutes are over.
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() - 1000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const afterLock = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expect(afterLock.statusCode, afterLock.body).toBe(200);
    const cleared = await t.db
      .selectFrom('account')
      .select(['FailedCount', 'LockedUntil'])
      .where('A_ID', '=', a.A_ID)
      .executeTakeFirstOrThrow();
    expect(cleared).toEqual({ FailedCount: 0, LockedUntil: null });

    // Five wrong passwords, then two refused attempts while locked.
    const failures = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'login_failed');
    expect(failures.map((r) => (JSON.parse(r.Summary) as { reason: string }).reason)).toEqual([
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'locked',
      'locked',
    ]);
  });

  it('a success in between resets the count of consecutive failures', async () => {
    const a = await freshAccount();
    for (let i = 0; i < 4; i++) {
      await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
    }
    expect((await loginRaw(t.app, { username: a.username, password: a.password, code: a.code })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      const res = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
      expectFailure(res, 403, 4003, 'login.wrong_credentials');
    }
  });

  it('after the lock ends, the next failure starts counting from zero', async () => {
    const a = await freshAccount();
    for (let i = 0; i < 5; i++) await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() - 1000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const again = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
    expectFailure(again, 403, 4003, 'login.wrong_credentials');
  });
});

describe('per-IP login limit', () => {
  it('answers 429 with 4029 once an address exceeds the limit; other addresses still log in', async () => {
    const limited = await buildTestApp({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '3' } });
    try {
      const key = await publicKeyOf(limited.app);
      const attempt = (ip: string) =>
        postLogin(
          limited.app,
          form(encryptLogin(key, loginPayload({ username: 'admin', password: 'Wrong#pass0', code: 'DEMO' }))),
          { ip },
        );
      for (let i = 0; i < 3; i++) expect((await attempt('10.1.1.1')).statusCode).toBe(403);
      const blocked = await attempt('10.1.1.1');
      expectFailure(blocked, 429, 4029, 'error.too_many');
      expect(blocked.json()).toMatchObject({ Code: 4029, Message: 'error.too_many' });
      // The limit counted attempts, not the account's failures: the account is not locked.
      const other = await postLogin(
        limited.app,
        form(encryptLogin(key, loginPayload({ username: 'admin', password: limited.demo.password, code: 'DEMO' }))),
        { ip: '10.2.2.2' },
      );
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
