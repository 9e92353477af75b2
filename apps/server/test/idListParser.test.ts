import { describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { addUser, body, tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

/** Issue 16: every call that takes a list of ids reads it with the one parser docs/api.md describes. */

const t = useTestApp();

describe('id lists in BChangeUser', () => {
  it('accepts a JSON array as text in a form, a comma list, one id and a JSON array in a JSON body', async () => {
    const a = await tenant(t);
    const [u1, u2] = [await addUser(a.api), await addUser(a.api)];
    const forms: [Record<string, string> | Record<string, unknown>, 'form' | 'json'][] = [
      [{ uids: `[${u1.UserID}]`, priValue: '1' }, 'form'],
      [{ uids: ` [ ${u1.UserID} , ${u2.UserID} ] `, priValue: '2' }, 'form'],
      [{ uids: `${u1.UserID}, ${u2.UserID},${u2.UserID}`, priValue: '3' }, 'form'],
      [{ uids: String(u2.UserID), priValue: '4' }, 'form'],
      [{ uids: [u1.UserID, u2.UserID], priValue: 5 }, 'json'],
      [{ uids: `[${u1.UserID}]`, priValue: 6 }, 'json'],
    ];
    const changed = [];
    for (const [fields, kind] of forms) {
      const res =
        kind === 'form'
          ? await a.api.post('/api/UserInfo/BChangeUser', fields as Record<string, string>)
          : await a.api.postJson('/api/UserInfo/BChangeUser', fields);
      changed.push(body<{ changed: number }>(res).changed);
    }
    expect(changed).toEqual([1, 2, 2, 1, 2, 1]);
  });

  it('refuses empty, malformed and oversized lists with a field error, changing nothing', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { PriorityLevel: 2 });
    const bad: [string, string][] = [
      ['', 'validation.required'],
      ['[]', 'validation.required'],
      ['[8', 'validation.invalid'],
      ['["x"]', 'validation.not_number'],
      ['1,,x', 'validation.required'],
      ['[0]', 'validation.out_of_range'],
      ['[1.5]', 'validation.not_number'],
      ['[{"__proto__":1}]', 'validation.not_number'],
      [`[${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}]`, 'validation.too_many_items'],
    ];
    for (const [uids, key] of bad) {
      const res = await a.api.post('/api/UserInfo/BChangeUser', { uids, priValue: '7' });
      expectFailure(res, 400, 4000, key);
    }
    const row = await t.db
      .selectFrom('terminal_user')
      .select('PriorityLevel')
      .where('UserID', '=', user.UserID)
      .executeTakeFirstOrThrow();
    expect(row.PriorityLevel).toBe(2);
  });
});
