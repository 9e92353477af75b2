import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bulkHashing } from '../src/auth/hashSlots.js';
import { verifyPassword } from '../src/auth/passwords.js';
import { ImportSlots } from '../src/modules/userinfo/importSlots.js';
import { expectFailure } from './helper.js';
import { addUser, countRows, tenant, uniquePhone, type Tenant } from './directoryFixtures.js';
import { csv, report, upload, type Cells } from './userImportFixtures.js';
import { useTestApp } from './useTestApp.js';

/**
 * Issue 48: what an import tells and what it costs others. Dry runs never compare passwords; a
 * phone of another enterprise cannot be imported, without a reason; one import per enterprise and
 * IMPORT_MAX_CONCURRENT on the server, others busy.
 */

const t = useTestApp();

const person = (cells: Cells = {}): Cells => {
  const phone = uniquePhone();
  return { UserName: `trust ${phone}`, MobilePhone: phone, Password: 'term-123', ...cells };
};

describe('a Password cell of a known user (issue 48)', () => {
  it('a dry run answers "password will be set" for a right and a wrong password alike', async () => {
    const a = await tenant(t);
    const known = await addUser(a.api, { Password: 'right-pw-1' });
    const row = (Password: string) => csv([{ MobilePhone: known.MobilePhone, UserName: known.UserName, Password }]);
    const right = report(await upload(a.api, row('right-pw-1'), 'dryRun=true'));
    const wrong = report(await upload(a.api, row('wrong-pw-2'), 'dryRun=true'));
    expect(right).toMatchObject({ updated: 1, unchanged: 0, passwordsSet: 1, errors: [] });
    expect(wrong).toEqual(right);
  });

  it('an import stopped by an invalid row does not compare either', async () => {
    const a = await tenant(t);
    const known = await addUser(a.api, { Password: 'right-pw-1' });
    const file = (Password: string) =>
      csv([{ MobilePhone: known.MobilePhone, UserName: known.UserName, Password }, person({ MobilePhone: '12ab' })]);
    const right = report(await upload(a.api, file('right-pw-1')));
    const wrong = report(await upload(a.api, file('wrong-pw-2')));
    expect(right).toMatchObject({ written: false, updated: 1, passwordsSet: 1 });
    expect(wrong).toEqual(right);
  });

  it('an import that writes compares: the same password is unchanged, another one is set and counted', async () => {
    const a = await tenant(t);
    const known = await addUser(a.api, { Password: 'right-pw-1' });
    const row = (Password: string) => csv([{ MobilePhone: known.MobilePhone, UserName: known.UserName, Password }]);
    expect(report(await upload(a.api, row('right-pw-1')))).toMatchObject({ unchanged: 1, passwordsSet: 0 });
    expect(report(await upload(a.api, row('new-pw-3')))).toMatchObject({ updated: 1, passwordsSet: 1 });
    const stored = await t.db
      .selectFrom('terminal_user')
      .select('PasswordHash')
      .where('UserID', '=', known.UserID)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword('new-pw-3', stored.PasswordHash)).toBe(true);
  });
});

describe('a phone of another enterprise (issue 48)', () => {
  it('cannot be imported, without saying why; a phone of the same enterprise is matched as before', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addUser(b.api);
    const ours = await addUser(a.api, { Remark: 'ours' });
    const rows = [
      person({ MobilePhone: theirs.MobilePhone }),
      { MobilePhone: ours.MobilePhone, UserName: ours.UserName, Remark: 'renamed' },
    ];
    for (const query of ['dryRun=true', 'skipInvalid=true']) {
      const answer = report(await upload(a.api, csv(rows), query));
      expect(answer).toMatchObject({ total: 2, valid: 1, updated: 1, created: 0 });
      expect(answer.errors).toEqual([
        { row: 2, field: 'MobilePhone', code: 'userImport.cannot_import', message: 'This phone cannot be imported' },
      ]);
    }
    const zh = report(await upload(a.api, csv(rows.slice(0, 1)), 'dryRun=true&lang=zh'));
    expect(zh.errors[0]?.message).toBe('该手机号无法导入');
    const theirsAfter = await t.db
      .selectFrom('terminal_user')
      .select(['E_ID', 'UserName'])
      .where('UserID', '=', theirs.UserID)
      .executeTakeFirstOrThrow();
    expect(theirsAfter).toEqual({ E_ID: b.E_ID, UserName: theirs.UserName });
  });
});

describe('imports at once (issue 48)', () => {
  it('ImportSlots: one per enterprise, at most `max` in all, a slot given back once', () => {
    const slots = new ImportSlots(2);
    const leaveA = slots.enter(1);
    expect(() => slots.enter(1)).toThrow('userImport.busy');
    const leaveB = slots.enter(2);
    expect(() => slots.check(3)).toThrow('userImport.busy');
    leaveA();
    leaveA();
    expect(() => slots.enter(1)).not.toThrow();
    expect(() => slots.enter(3)).toThrow('userImport.busy');
    leaveB();
    expect(() => slots.check(3)).not.toThrow();
  });

  it('another import of the same enterprise, or a third on the server, is busy (4029, HTTP 429) until one ends', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const c = await tenant(t);
    // Every hashing slot held: an import that writes a new user waits in its hashing stage.
    const releases: (() => void)[] = [];
    const held = Array.from({ length: bulkHashing.size }, () =>
      bulkHashing.run(() => new Promise<void>((resolve) => releases.push(resolve))),
    );
    // An import in its hashing stage, as its progress events tell (the worker's start takes a while).
    const hashing = async (tenantOf: Tenant) => {
      const importId = randomUUID();
      let stop = () => undefined as void;
      const reached = new Promise<void>((resolve) => {
        stop = t.app.deps.realtime.bus.subscribe((event) => {
          if (event.kind === 'importProgress' && event.importId === importId && event.phase === 'hash') resolve();
        });
      });
      const answer = upload(tenantOf.api, csv([person()]), `importId=${importId}`);
      await reached;
      stop();
      // Wrapped: returned bare, the answer (a thenable) would be awaited here, and it waits for the hashing.
      return { answer };
    };
    try {
      const first = await hashing(a);
      const again = await upload(a.api, csv([person()]), 'dryRun=true');
      expectFailure(again, 429, 4029, 'userImport.busy');
      const second = await hashing(b);
      expectFailure(await upload(c.api, csv([person()]), 'dryRun=true'), 429, 4029, 'userImport.busy');
      for (const release of releases) release();
      await Promise.all(held);
      expect(report(await first.answer)).toMatchObject({ created: 1, written: true });
      expect(report(await second.answer)).toMatchObject({ created: 1, written: true });
    } finally {
      for (const release of releases) release();
    }
    expect(report(await upload(c.api, csv([person()])))).toMatchObject({ created: 1, written: true });
    expect(report(await upload(a.api, csv([person()])))).toMatchObject({ created: 1, written: true });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(2);
  });
});
