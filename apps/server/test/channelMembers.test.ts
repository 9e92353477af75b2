// postgres: membership queries through the API.
import type { ChannelRow, ChannelMemberRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { data, form, rows, saveChannel, useChannelApp } from './channelFixtures.js';

const { expectLogCount, insertUsers, logged, memberIds, org, setConfig } = useChannelApp();

describe('POST /api/THChannel/CMemberChange', () => {
  it('adds 5,000 members in one call: one transaction, one log row, and QueryCMember pages and searches them', async () => {
    const a = await org();
    const uids = await insertUsers(a.E_ID, 5000, { name: (i) => `member ${String(i).padStart(4, '0')}` });
    const channel = await saveChannel(a.api);
    const res = await a.api.postJson('/api/THChannel/CMemberChange', { cid: channel.CID, action: 'add', uids });
    expect(data(res)).toEqual({ CID: channel.CID, added: 5000, removed: 0, updated: 0, MemberCount: 5000 });
    expect((await memberIds(channel.CID)).length).toBe(5000);
    const log = await logged(a.E_ID, 'channel_members');
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]?.Summary ?? '{}')).toMatchObject({ action: 'add', before: 0, after: 5000 });

    const page = rows<ChannelMemberRow>(
      await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}&pageIndex=3&pageSize=20`),
    );
    expect(page.total).toBe(5000);
    expect(page.rows).toHaveLength(20);
    expect(page.rows[0]?.UserID).toBe(uids[60]);
    const search = rows<ChannelMemberRow>(
      await a.api.get(
        `/api/THChannel/QueryCMember?cid=${channel.CID}&search=MEMBER%2049&orderField=UserName&desc=true`,
      ),
    );
    expect(search.total).toBe(100);
    expect(search.rows[0]?.UserName).toBe('member 4999');
    const entity = data<ChannelRow>(await a.api.get(`/api/Channel/Entitys/${channel.CID}`));
    expect(entity.MemberCount).toBe(5000);
  });

  it('sets, adds and removes; set replaces the list; priority applies to the named members', async () => {
    const a = await org();
    const [u1, u2, u3, u4] = await insertUsers(a.E_ID, 4, { PriorityLevel: 2 });
    const channel = await saveChannel(a.api);
    const change = (body: Record<string, unknown>) =>
      a.api.postJson('/api/THChannel/CMemberChange', { cid: channel.CID, ...body });
    expect(data(await change({ uids: [u1, u2, u3] }))).toMatchObject({ added: 3, MemberCount: 3 });
    expect(data(await change({ action: 'set', uids: [u2, u3, u4] }))).toMatchObject({
      added: 1,
      removed: 1,
      MemberCount: 3,
    });
    expect(await memberIds(channel.CID)).toEqual([u2, u3, u4]);
    expect(data(await change({ action: 'add', uids: [u2, u1], priority: 7 }))).toMatchObject({
      added: 1,
      updated: 1,
      MemberCount: 4,
    });
    expect(data(await change({ action: 'remove', uids: `${u3},${u4}` }))).toMatchObject({ removed: 2, MemberCount: 2 });
    const members = rows<ChannelMemberRow>(await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}`));
    expect(members.rows.map((m) => [m.UserID, m.Priority])).toEqual([
      [u1, 7],
      [u2, 7],
    ]);
    expect(data(await change({ action: 'remove', uids: [u3] }))).toMatchObject({ removed: 0, MemberCount: 2 });
    await expectLogCount(a.E_ID, 'channel_members', 4);
  });

  it('refuses empty members, an unknown action and ids of another enterprise (4004), changing nothing', async () => {
    const a = await org();
    const b = await org();
    const own = await insertUsers(a.E_ID, 2);
    const [foreign] = await insertUsers(b.E_ID, 1);
    const channel = await saveChannel(a.api);
    const theirs = await saveChannel(b.api);
    expectFailure(
      await a.api.post('/api/THChannel/CMemberChange', form({ cid: channel.CID, uids: '' })),
      400,
      4000,
      'channel.members_empty',
    );
    expectFailure(
      await a.api.postJson('/api/THChannel/CMemberChange', { cid: channel.CID, action: 'drop', uids: own }),
      400,
      4000,
    );
    expectFailure(
      await a.api.postJson('/api/THChannel/CMemberChange', { cid: channel.CID, uids: [...own, foreign] }),
      404,
      4004,
    );
    expectFailure(
      await a.api.postJson('/api/THChannel/CMemberChange', { cid: theirs.CID, uids: [foreign] }),
      404,
      4004,
    );
    expectFailure(
      await a.api.postJson('/api/THChannel/CMemberChange', { cid: channel.CID, uids: [999_999_999] }),
      404,
      4004,
    );
    expect(await memberIds(channel.CID)).toEqual([]);
    expect(await memberIds(theirs.CID)).toEqual([]);
    await expectLogCount(a.E_ID, 'channel_members', 0);
  });
});

describe('member priority, rooms and batch changes', () => {
  it('ChangeMemPriority and BChangeMemPri set 0-7; a non-member or 8 changes nothing', async () => {
    const a = await org();
    const [u1, u2, u3] = await insertUsers(a.E_ID, 3);
    const channel = await saveChannel(a.api);
    await a.api.postJson('/api/THChannel/CMemberChange', { cid: channel.CID, uids: [u1, u2] });
    expect(
      data(await a.api.post('/api/THChannel/ChangeMemPriority', form({ rid: channel.CID, uid: u1!, priority: 7 }))),
    ).toEqual({ CID: channel.CID, changed: 1 });
    expectFailure(
      await a.api.post('/api/THChannel/ChangeMemPriority', form({ rid: channel.CID, uid: u1!, priority: 8 })),
      400,
      4000,
      'validation.out_of_range',
    );
    expectFailure(
      await a.api.post('/api/THChannel/ChangeMemPriority', form({ rid: channel.CID, uid: u1!, priority: -1 })),
      400,
      4000,
    );
    expectFailure(
      await a.api.post('/api/THChannel/ChangeMemPriority', form({ rid: channel.CID, uid: u3!, priority: 1 })),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/THChannel/BChangeMemPri', form({ rid: channel.CID, uids: `${u1},${u3}`, priority: 0 })),
      404,
      4004,
    );
    expect(
      data(
        await a.api.post('/api/THChannel/BChangeMemPri', form({ rid: channel.CID, uids: `${u1},${u2}`, priority: 4 })),
      ),
    ).toEqual({ CID: channel.CID, changed: 2 });
    const members = rows<ChannelMemberRow>(await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}`));
    expect(members.rows.map((m) => m.Priority)).toEqual([4, 4]);
    await expectLogCount(a.E_ID, 'member_priority', 2);
  });

  it("URoomChange sets a user's channels; QueryChannel shows IsMember; channels of another enterprise are 4004", async () => {
    const a = await org();
    const b = await org();
    const [user] = await insertUsers(a.E_ID, 1, { PriorityLevel: 3 });
    const c1 = await saveChannel(a.api);
    const c2 = await saveChannel(a.api);
    const c3 = await saveChannel(a.api);
    const foreign = await saveChannel(b.api);
    expect(
      data(await a.api.post('/api/THChannel/URoomChange', form({ uid: user!, cids: `${c1.CID},${c2.CID}` }))),
    ).toMatchObject({ added: 2, removed: 0 });
    expect(
      data(await a.api.postJson('/api/THChannel/URoomChange', { uid: user, cids: [c2.CID, c3.CID], priority: 6 })),
    ).toMatchObject({
      added: 1,
      removed: 1,
      updated: 1,
    });
    expectFailure(
      await a.api.postJson('/api/THChannel/URoomChange', { uid: user, cids: [c1.CID, foreign.CID] }),
      404,
      4004,
    );
    const listed = rows<{ CID: number; IsMember: number; MemberPriority: number | null }>(
      await a.api.get(`/api/THChannel/QueryChannel?uid=${user}`),
    );
    expect(listed.rows.map((c) => [c.CID, c.IsMember, c.MemberPriority])).toEqual([
      [c1.CID, 0, null],
      [c2.CID, 1, 6],
      [c3.CID, 1, 6],
    ]);
    const mine = rows(await a.api.get(`/api/THChannel/QueryChannel?uid=${user}&onlyMember=true`));
    expect(mine.total).toBe(2);
    expect(data(await a.api.post('/api/THChannel/URoomChange', form({ uid: user!, cids: '' })))).toMatchObject({
      removed: 2,
      rooms: [],
    });
    const [theirUser] = await insertUsers(b.E_ID, 1);
    expectFailure(await a.api.post('/api/THChannel/URoomChange', form({ uid: theirUser!, cids: '' })), 404, 4004);
    expectFailure(await a.api.get(`/api/THChannel/QueryChannel?uid=${theirUser}`), 404, 4004);
    await expectLogCount(a.E_ID, 'user_rooms', 3);
  });

  it('BChangeRoom changes priority and type of several channels; a type outside the list or a foreign id changes nothing', async () => {
    const a = await org();
    const b = await org();
    const c1 = await saveChannel(a.api);
    const c2 = await saveChannel(a.api);
    const foreign = await saveChannel(b.api);
    expectFailure(
      await a.api.post('/api/THChannel/BChangeRoom', form({ cids: `${c1.CID},${c2.CID}`, typeid: 105 })),
      400,
      4000,
      'channel.type_not_allowed',
    );
    expectFailure(
      await a.api.post('/api/THChannel/BChangeRoom', form({ cids: `${c1.CID},${foreign.CID}`, priority: 3 })),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/THChannel/BChangeRoom', form({ cids: `${c1.CID}` })),
      400,
      4000,
      'validation.required',
    );
    await setConfig(a.E_ID, 'ChannelTypeID', '105,106');
    expect(
      data(
        await a.api.post('/api/THChannel/BChangeRoom', form({ cids: `${c1.CID},${c2.CID}`, priority: 3, typeid: 105 })),
      ),
    ).toEqual({ changed: 2 });
    const list = rows<ChannelRow>(await a.api.get('/api/Channel/QueryData?pageSize=50'));
    expect(list.rows.map((c) => [c.Priority, c.CTypeID])).toEqual([
      [3, 105],
      [3, 105],
    ]);
    expect(data<ChannelRow>(await b.api.get(`/api/Channel/Entitys/${foreign.CID}`)).Priority).toBe(0);
    await expectLogCount(a.E_ID, 'channel_batch_change', 1);
  });
});
