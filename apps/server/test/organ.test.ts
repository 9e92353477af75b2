import type { OrganRow, OrgTreeNode } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from './helper.js';
import { addOrgan, addUser, body, countRows, expectLogged, tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

describe('POST /api/Organ/Save', () => {
  it('creates a department under the enterprise from a form, defaults filled in, and logs it', async () => {
    const a = await tenant(t);
    const res = await a.api.post('/api/Organ/Save', {
      E_ID: String(a.E_ID),
      OSID: '0',
      OSParentID: '0',
      OSName: ' Sales ',
    });
    const organ = body<OrganRow>(res);
    expect(organ).toMatchObject({ E_ID: a.E_ID, OSParentID: 0, OSName: 'Sales', U_TypeID: 0, PriorityLevel: 0 });
    expect(organ.OSID).toBeGreaterThan(0);
    const log = await expectLogged(t, a.E_ID, 'organ_create', 'Sales');
    expect(log.Operator).toBe(a.username);
  });

  it('accepts JSON too, and E_ID defaults to the working enterprise', async () => {
    const a = await tenant(t);
    const organ = body<OrganRow>(await a.api.postJson('/api/Organ/Save', { OSName: 'Ops', PriorityLevel: 7 }));
    expect(organ).toMatchObject({ E_ID: a.E_ID, PriorityLevel: 7 });
  });

  it.each([
    ['empty', '', 'validation.required'],
    ['only spaces', '   ', 'validation.required'],
    ['33 characters', 'x'.repeat(33), 'validation.too_long'],
  ])('refuses a name that is %s', async (_name, OSName, key) => {
    const a = await tenant(t);
    const res = await a.api.post('/api/Organ/Save', { OSName });
    expect(expectFailure(res, 400, 4000, key).Data).toEqual([{ field: 'OSName', key }]);
    expect(await countRows(t, 'organ', a.E_ID)).toBe(0);
  });

  it('accepts a name of 32 characters (Chinese counted as one each)', async () => {
    const a = await tenant(t);
    expectSuccess(await a.api.post('/api/Organ/Save', { OSName: '部'.repeat(32) }));
  });

  it.each([
    ['-1', 4000],
    ['8', 4000],
    ['x', 4000],
  ])('refuses PriorityLevel %s', async (PriorityLevel) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/Organ/Save', { OSName: 'P', PriorityLevel }), 400, 4000);
  });

  it('accepts PriorityLevel 0 and 7', async () => {
    const a = await tenant(t);
    expectSuccess(await a.api.post('/api/Organ/Save', { OSName: 'P0', PriorityLevel: '0' }));
    expectSuccess(await a.api.post('/api/Organ/Save', { OSName: 'P7', PriorityLevel: '7' }));
  });

  it('refuses a sibling with the same name (4009 common.name_exists) but allows it under another parent', async () => {
    const a = await tenant(t);
    const top = await addOrgan(a.api, { OSName: 'Team' });
    expectFailure(await a.api.post('/api/Organ/Save', { OSName: 'Team' }), 409, 4009, 'common.name_exists');
    expectSuccess(await a.api.post('/api/Organ/Save', { OSName: 'Team', OSParentID: String(top) }));
    expectFailure(
      await a.api.post('/api/Organ/Save', { OSName: 'Team', OSParentID: String(top) }),
      409,
      4009,
      'common.name_exists',
    );
  });

  it('renames a department; renaming onto a sibling name is 4009', async () => {
    const a = await tenant(t);
    const one = await addOrgan(a.api, { OSName: 'One' });
    await addOrgan(a.api, { OSName: 'Two' });
    const renamed = body<OrganRow>(await a.api.post('/api/Organ/Save', { OSID: String(one), OSName: 'Uno' }));
    expect(renamed).toMatchObject({ OSID: one, OSName: 'Uno', OSParentID: 0 });
    const log = await expectLogged(t, a.E_ID, 'organ_update', 'One');
    expect(JSON.parse(log.Summary)).toEqual({ OSName: ['One', 'Uno'] });
    expectFailure(
      await a.api.post('/api/Organ/Save', { OSID: String(one), OSName: 'Two' }),
      409,
      4009,
      'common.name_exists',
    );
    // Saving a department under its own name is not a conflict with itself.
    expectSuccess(await a.api.post('/api/Organ/Save', { OSID: String(one), OSName: 'Uno' }));
  });

  it('refuses cycles: a department under itself or under its own descendant', async () => {
    const a = await tenant(t);
    const top = await addOrgan(a.api, { OSName: 'Top' });
    const mid = await addOrgan(a.api, { OSName: 'Mid', OSParentID: top });
    const low = await addOrgan(a.api, { OSName: 'Low', OSParentID: mid });
    for (const parent of [top, mid, low]) {
      const res = await a.api.post('/api/Organ/Save', { OSID: String(top), OSName: 'Top', OSParentID: String(parent) });
      expect(expectFailure(res, 400, 4000, 'organ.cycle').Data).toEqual([{ field: 'OSParentID', key: 'organ.cycle' }]);
    }
    // Moving the bottom one to the top is fine.
    const moved = body<OrganRow>(
      await a.api.post('/api/Organ/Save', { OSID: String(low), OSName: 'Low', OSParentID: '0' }),
    );
    expect(moved.OSParentID).toBe(0);
  });

  it('answers 4004 for a parent or a department of another enterprise, and changes nothing', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addOrgan(b.api, { OSName: 'Theirs' });
    expectFailure(
      await a.api.post('/api/Organ/Save', { OSName: 'X', OSParentID: String(theirs) }),
      404,
      4004,
      'error.not_found',
    );
    expectFailure(await a.api.post('/api/Organ/Save', { OSID: String(theirs), OSName: 'Mine now' }), 404, 4004);
    expectFailure(await a.api.post('/api/Organ/Save', { E_ID: String(b.E_ID), OSName: 'Y' }), 404, 4004);
    expect(await countRows(t, 'organ', a.E_ID)).toBe(0);
    const row = await t.db.selectFrom('organ').select('OSName').where('OSID', '=', theirs).executeTakeFirstOrThrow();
    expect(row.OSName).toBe('Theirs');
  });

  it('refuses a parent of another enterprise of the scope (4000 organ.parent_enterprise)', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const childOrgan = await addOrgan(child.api, { OSName: 'Child dept' });
    const res = await parent.api.post('/api/Organ/Save', { OSName: 'X', OSParentID: String(childOrgan) });
    expectFailure(res, 400, 4000, 'organ.parent_enterprise');
    // The parent may create a department in its sub-enterprise.
    const made = body<OrganRow>(
      await parent.api.post('/api/Organ/Save', { E_ID: String(child.E_ID), OSName: 'Made by parent' }),
    );
    expect(made.E_ID).toBe(child.E_ID);
  });

  it('refuses to move a department to another enterprise', async () => {
    const parent = await tenant(t);
    const child = await tenant(t, { parentId: parent.E_ID });
    const organ = await addOrgan(parent.api, { OSName: 'Stay' });
    const res = await parent.api.post('/api/Organ/Save', {
      OSID: String(organ),
      E_ID: String(child.E_ID),
      OSName: 'Stay',
    });
    expectFailure(res, 400, 4000, 'validation.invalid');
  });

  it('refuses an unknown user type (4000 user.type_unknown)', async () => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/Organ/Save', { OSName: 'T', U_TypeID: '99' }), 400, 4000, 'user.type_unknown');
  });

  it('lets an editor manage departments', async () => {
    const e = await tenant(t, { role: 'editor' });
    const id = await addOrgan(e.api, { OSName: 'By editor' });
    expectSuccess(await e.api.delete(`/api/Organ/Delete/${id}`));
  });
});

describe('DELETE /api/Organ/Delete/{id}', () => {
  it('deletes an empty department and logs it', async () => {
    const a = await tenant(t);
    const id = await addOrgan(a.api, { OSName: 'Empty' });
    expectSuccess(await a.api.delete(`/api/Organ/Delete/${id}`));
    expect(await countRows(t, 'organ', a.E_ID)).toBe(0);
    await expectLogged(t, a.E_ID, 'organ_delete', 'Empty');
  });

  it('refuses a department with child departments, with users, or both, and says which', async () => {
    const a = await tenant(t);
    const parent = await addOrgan(a.api, { OSName: 'Parent' });
    await addOrgan(a.api, { OSName: 'Kid', OSParentID: parent });
    const withUsers = await addOrgan(a.api, { OSName: 'Staffed' });
    await addUser(a.api, { OS_ID: withUsers });
    await addUser(a.api, { OS_ID: withUsers });
    const both = await addOrgan(a.api, { OSName: 'Both' });
    await addOrgan(a.api, { OSName: 'Kid2', OSParentID: both });
    await addUser(a.api, { OS_ID: both });

    const children = expectFailure(await a.api.delete(`/api/Organ/Delete/${parent}`), 409, 4009, 'organ.has_children');
    expect(children.BaseResult.Params).toEqual({ children: 1 });
    const users = expectFailure(await a.api.delete(`/api/Organ/Delete/${withUsers}`), 409, 4009, 'organ.has_users');
    expect(users.BaseResult.Params).toEqual({ users: 2 });
    const mixed = expectFailure(
      await a.api.delete(`/api/Organ/Delete/${both}`),
      409,
      4009,
      'organ.has_children_and_users',
    );
    expect(mixed.BaseResult.Params).toEqual({ children: 1, users: 1 });
    expect(await countRows(t, 'organ', a.E_ID)).toBe(5);
  });

  it('answers 4004 for a department of another enterprise or one that does not exist', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addOrgan(b.api);
    expectFailure(await a.api.delete(`/api/Organ/Delete/${theirs}`), 404, 4004, 'error.not_found');
    expectFailure(await a.api.delete('/api/Organ/Delete/2147483647'), 404, 4004);
    expect(await countRows(t, 'organ', b.E_ID)).toBe(1);
  });
});

describe('GET /api/Organ/Entitys/{id}', () => {
  it('returns the department with its direct children and users', async () => {
    const a = await tenant(t);
    const id = await addOrgan(a.api, { OSName: 'Root', PriorityLevel: 3 });
    await addOrgan(a.api, { OSName: 'Sub', OSParentID: id });
    await addUser(a.api, { OS_ID: id });
    const detail = body(await a.api.get(`/api/Organ/Entitys/${id}`));
    expect(detail).toEqual({
      OSID: id,
      E_ID: a.E_ID,
      OSParentID: 0,
      OSName: 'Root',
      U_TypeID: 0,
      PriorityLevel: 3,
      ChildCount: 1,
      UserCount: 1,
    });
  });

  it('answers 4004 for another enterprise and 4000 for a bad id', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addOrgan(b.api);
    expectFailure(await a.api.get(`/api/Organ/Entitys/${theirs}`), 404, 4004);
    expectFailure(await a.api.get('/api/Organ/Entitys/abc'), 400, 4000);
  });
});

describe('GET /api/Organ/QueryData', () => {
  it('lists the departments of the scope only', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    await addOrgan(a.api, { OSName: 'A1' });
    await addOrgan(b.api, { OSName: 'B1' });
    const list = expectSuccess(await a.api.get('/api/Organ/QueryData?pageSize=50'));
    expect((list.Data as OrganRow[]).map((o) => o.OSName)).toEqual(['A1']);
    expect(list.Total).toBe(1);
  });
});

describe('GET /api/Organ/GetOrganizeList', () => {
  it('first load: the working enterprise, its sub-enterprises, top departments and users without one', async () => {
    const a = await tenant(t);
    const child = await tenant(t, { parentId: a.E_ID });
    await addUser(child.api);
    const sales = await addOrgan(a.api, { OSName: 'Sales' });
    const east = await addOrgan(a.api, { OSName: 'East', OSParentID: sales });
    await addUser(a.api, { OS_ID: sales });
    await addUser(a.api, { OS_ID: east });
    await addUser(a.api, { OS_ID: east });
    const loose = await addUser(a.api, { UserName: 'Loose' });

    const res = expectSuccess(await a.api.get('/api/Organ/GetOrganizeList'));
    const nodes = res.Data as OrgTreeNode[];
    expect(nodes.map((n) => [n.level, n.aid, n.userCount])).toEqual([
      [0, `E${a.E_ID}`, 5],
      [0, `E${child.E_ID}`, 1],
      [1, `O${sales}`, 3],
      [2, `U${loose.UserID}`, 0],
    ]);
    expect(nodes[0]).toMatchObject({
      id: a.E_ID,
      pId: 0,
      eid: a.E_ID,
      class: 'enterprise',
      icon: 'enterprise',
      isParent: true,
    });
    expect(nodes[3]).toMatchObject({ name: 'Loose', pId: 0, class: 'user', phone: loose.MobilePhone, isParent: false });
    expect(res.Total).toBe(1);

    const below = expectSuccess(await a.api.get(`/api/Organ/GetOrganizeList?eid=${a.E_ID}&id=${sales}`));
    expect((below.Data as OrgTreeNode[]).map((n) => [n.level, n.id, n.userCount])).toEqual([
      [1, east, 2],
      [2, expect.any(Number), 0],
    ]);
    const sub = expectSuccess(await a.api.get(`/api/Organ/GetOrganizeList?eid=${child.E_ID}`));
    expect((sub.Data as OrgTreeNode[]).map((n) => n.level)).toEqual([2]);
  });

  it('pages the users of a node with offset and limit; Total counts them all', async () => {
    const a = await tenant(t);
    const dept = await addOrgan(a.api, { OSName: 'Big' });
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await addUser(a.api, { OS_ID: dept })).UserID);
    const first = expectSuccess(await a.api.get(`/api/Organ/GetOrganizeList?eid=${a.E_ID}&id=${dept}&limit=2`));
    expect((first.Data as OrgTreeNode[]).map((n) => n.id)).toEqual(made.slice(0, 2));
    expect(first.Total).toBe(5);
    const next = expectSuccess(await a.api.get(`/api/Organ/GetOrganizeList?eid=${a.E_ID}&id=${dept}&limit=2&offset=4`));
    expect((next.Data as OrgTreeNode[]).map((n) => n.id)).toEqual(made.slice(4));
  });

  it('marks frozen and expired users in class', async () => {
    const a = await tenant(t);
    const frozen = await addUser(a.api, { ExpireAt: 1000 });
    expectSuccess(await a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: frozen.MobilePhone, isLock: 'true' }));
    const res = expectSuccess(await a.api.get('/api/Organ/GetOrganizeList'));
    expect((res.Data as OrgTreeNode[]).find((n) => n.level === 2)?.class).toBe('user locked expired');
  });

  it('answers 4004 for an enterprise or department outside the scope', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addOrgan(b.api);
    expectFailure(await a.api.get(`/api/Organ/GetOrganizeList?eid=${b.E_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/Organ/GetOrganizeList?eid=${a.E_ID}&id=${theirs}`), 404, 4004);
    expectFailure(await a.api.get('/api/Organ/GetOrganizeList?limit=501'), 400, 4000);
  });
});
