import { RESUME_TOKEN_PATTERN, TerminalErrors, TerminalLimits } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { TEST_LOG_N } from '../helper.js';
import { TERMINAL_PASSWORD, TestTerminal, createTerminalUser, useTerminalApp } from './terminalTestApp.js';

// A login's `resume` token (docs/terminal-protocol.md, "Login"): it stands in for the password, so a
// reconnect storm does not pay a scrypt per terminal; it fails like a wrong password otherwise.
const t = useTerminalApp({ loginMaxFailures: 3 });

const user = () => createTerminalUser(t, { E_ID: t.demo.E_ID });

const login = (fields: Record<string, unknown>) => TestTerminal.loginOnce(t, fields);

/** A password login's token. */
async function tokenOf(phone: string): Promise<string> {
  const ack = await login({ phone, password: TERMINAL_PASSWORD });
  expect(ack).toMatchObject({ type: 'ack', resume: expect.stringMatching(RESUME_TOKEN_PATTERN) });
  return ack.resume as string;
}

const storedRow = (U_ID: number) =>
  t.db.selectFrom('terminal_resume').selectAll().where('UserID', '=', U_ID).executeTakeFirst();

const refused = (code: string) => expect.objectContaining({ type: 'error', code });

describe('resume tokens', () => {
  it('a password login hands one out; a login with it alone is acked as the user, without a new one; only its hash is kept', async () => {
    const { phone, U_ID } = await user();
    const token = await tokenOf(phone);
    const row = await storedRow(U_ID);
    expect(row?.TokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.TokenHash).not.toContain(token);
    expect(row?.ExpiresAt).toBeGreaterThan(Date.now() + TerminalLimits.resumeTtlMs - 60_000);

    const resumed = await login({ phone, resume: token, device: 'resume.test' });
    expect(resumed).toMatchObject({ type: 'ack', user: { U_ID, Phone: phone }, config: { interval: 60 } });
    expect(resumed).not.toHaveProperty('resume');
    // It stands in for the password: a wrong one beside it does not matter.
    expect(await login({ phone, password: 'wrong-pass', resume: token })).toMatchObject({ type: 'ack' });
    // And it is still good afterwards (no rotation on use).
    expect(await login({ phone, resume: token })).toMatchObject({ type: 'ack' });
  });

  it("refuses a wrong token, another user's, an expired one and one replaced by a newer password login, as a wrong password", async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    const [tokenA, tokenB] = [await tokenOf(a.phone), await tokenOf(b.phone)];
    expect(await login({ phone: a.phone, resume: 'x'.repeat(43) })).toEqual(refused(TerminalErrors.badCredentials));
    expect(await login({ phone: a.phone, resume: tokenB })).toEqual(refused(TerminalErrors.badCredentials));
    // An unknown phone gets the same answer.
    expect(await login({ phone: '19999999998', resume: tokenA })).toEqual(refused(TerminalErrors.badCredentials));

    // A wrong token beside the right password: the password decides, and a new token replaces the old.
    const fallback = await login({ phone: b.phone, password: TERMINAL_PASSWORD, resume: tokenA });
    expect(fallback).toMatchObject({ type: 'ack', resume: expect.stringMatching(RESUME_TOKEN_PATTERN) });
    expect(fallback.resume).not.toBe(tokenB);
    expect(await login({ phone: b.phone, resume: tokenB })).toEqual(refused(TerminalErrors.badCredentials));
    expect(await login({ phone: b.phone, resume: fallback.resume })).toMatchObject({ type: 'ack' });

    const tokenC = await tokenOf(c.phone);
    await t.db
      .updateTable('terminal_resume')
      .set({ ExpiresAt: Date.now() - 1 })
      .where('UserID', '=', c.U_ID)
      .execute();
    expect(await login({ phone: c.phone, resume: tokenC })).toEqual(refused(TerminalErrors.badCredentials));
  });

  it('ends with a new password; a frozen user is refused as frozen, a deleted one as unknown', async () => {
    const [changed, frozen, deleted] = [await user(), await user(), await user()];
    const tokens = [await tokenOf(changed.phone), await tokenOf(frozen.phone), await tokenOf(deleted.phone)];
    const newHash = await hashPassword('Another#2026', TEST_LOG_N);
    await t.db.updateTable('terminal_user').set({ PasswordHash: newHash }).where('UserID', '=', changed.U_ID).execute();
    expect(await login({ phone: changed.phone, resume: tokens[0] })).toEqual(refused(TerminalErrors.badCredentials));
    expect(await login({ phone: changed.phone, password: 'Another#2026' })).toMatchObject({ type: 'ack' });

    await t.db.updateTable('terminal_user').set({ IsLock: 1 }).where('UserID', '=', frozen.U_ID).execute();
    expect(await login({ phone: frozen.phone, resume: tokens[1] })).toEqual(refused(TerminalErrors.frozen));

    await t.db.deleteFrom('terminal_user').where('UserID', '=', deleted.U_ID).execute();
    expect(await login({ phone: deleted.phone, resume: tokens[2] })).toEqual(refused(TerminalErrors.badCredentials));
  });

  // Issue 48, finding 6: a wrong token alone counted toward the lock and the lock was checked before the
  // token, so a stranger locked out terminals that held a good token. Lock password guesses, not possession.
  it('never counts a wrong token alone toward the phone lock', async () => {
    const { phone } = await user();
    const token = await tokenOf(phone);
    for (let i = 0; i < 6; i++)
      expect(await login({ phone, resume: 'y'.repeat(43) })).toEqual(refused(TerminalErrors.badCredentials));
    expect(await login({ phone, resume: token })).toMatchObject({ type: 'ack' });
    expect(await login({ phone, password: TERMINAL_PASSWORD })).toMatchObject({ type: 'ack' });
  });

  it('lets a good token in while wrong passwords hold the lock; the password stays locked out', async () => {
    const { phone } = await user();
    const token = await tokenOf(phone);
    for (let i = 0; i < 3; i++)
      expect(await login({ phone, password: 'wrong-pass' })).toEqual(refused(TerminalErrors.badCredentials));
    expect(await login({ phone, password: TERMINAL_PASSWORD })).toEqual(refused(TerminalErrors.tooManyAttempts));
    expect(await login({ phone, resume: token })).toMatchObject({ type: 'ack' });
    // A good token beside a wrong password gets in too, and neither resets nor adds to the count.
    expect(await login({ phone, password: 'wrong-pass', resume: token })).toMatchObject({ type: 'ack' });
    // A wrong token beside the right password: the password decides, and the lock refuses it.
    expect(await login({ phone, password: TERMINAL_PASSWORD, resume: 'y'.repeat(43) })).toEqual(
      refused(TerminalErrors.tooManyAttempts),
    );
  });

  it('answers a malformed token or one without a phone with invalid, and logs nobody in', async () => {
    const { phone, U_ID } = await user();
    for (const resume of [
      '',
      'short',
      'z'.repeat(44),
      `${'a'.repeat(42)}+`,
      `${'a'.repeat(42)}=`,
      42,
      null,
      ['a'],
      {},
    ]) {
      const answer = await login({ phone, resume });
      expect(answer, JSON.stringify(resume)).toEqual(refused(TerminalErrors.invalid));
      expect(answer.field, JSON.stringify(resume)).toBe('resume');
    }
    const token = await tokenOf(phone);
    expect(await login({ resume: token })).toEqual(refused(TerminalErrors.invalid));
    expect(await login({ phone, password: undefined })).toMatchObject({
      code: TerminalErrors.invalid,
      field: 'password',
    });
    expect(await storedRow(U_ID)).toBeDefined();
  });
});
