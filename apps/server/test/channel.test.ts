import type { ChannelRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure } from './helper.js';
import { channelName, data, form, rows, saveChannel, useChannelApp } from './channelFixtures.js';

const { t, expectLogCount, insertUsers, logged, org, setConfig } = useChannelApp();

async function channelCount(E_ID: number): Promise<number> {
  const row = await t.db
    .selectFrom('channel')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', E_ID)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

describe('POST /api/THChannel/SaveChannel: the rules of SPEC.md section 5', () => {
  it('creates a channel of the default type 106 and logs it', async () => {
    const a = await org();
    const channel = await saveChannel(a.api, { cname: 'Patrol', note: 'night shift' });
    expect(channel).toMatchObject({
      E_ID: a.E_ID,
      CName: 'Patrol',
      CTypeID: 106,
      Note: 'night shift',
      Priority: 0,
      VideoEnable: 0,
      Record: 0,
      MemberCount: 0,
    });
    const [row] = await logged(a.E_ID, 'channel_create');
    expect(row?.Target).toBe('Patrol');
    expect(row?.A_ID).toBe(a.A_ID);
  });

  it('counts characters, not bytes: 20 Chinese characters pass, 21 fail with validation.too_long', async () => {
    const a = await org();
    const twenty = '调度中心一号频道测试名称长度正好二十个';
    expect([...twenty].length).toBe(19);
    const exactly20 = `${twenty}字`;
    expect(Buffer.byteLength(exactly20)).toBe(60);
    const ok = await saveChannel(a.api, { cname: exactly20 });
    expect(ok.CName).toBe(exactly20);
    const res = await a.api.post('/api/THChannel/SaveChannel', form({ cname: `${exactly20}多` }));
    const body = expectFailure(res, 400, 4000, 'validation.too_long');
    expect(body.Data).toEqual([{ field: 'cname', key: 'validation.too_long' }]);
    expect(await channelCount(a.E_ID)).toBe(1);
  });

  it('refuses an empty or blank name (validation.required)', async () => {
    const a = await org();
    expectFailure(
      await a.api.post('/api/THChannel/SaveChannel', form({ cname: '' })),
      400,
      4000,
      'validation.required',
    );
    expectFailure(
      await a.api.post('/api/THChannel/SaveChannel', form({ cname: '   ' })),
      400,
      4000,
      'validation.required',
    );
    expectFailure(
      await a.api.post('/api/THChannel/SaveChannel', form({ note: 'x' })),
      400,
      4000,
      'validation.required',
    );
    expect(await channelCount(a.E_ID)).toBe(0);
  });

  it('refuses a duplicate name in the enterprise (409 common.name_exists); another enterprise may use it', async () => {
    const a = await org();
    const b = await org();
    await saveChannel(a.api, { cname: '一组' });
    expectFailure(
      await a.api.post('/api/THChannel/SaveChannel', form({ cname: ' 一组 ' })),
      409,
      4009,
      'common.name_exists',
    );
    expect(await channelCount(a.E_ID)).toBe(1);
    expect((await saveChannel(b.api, { cname: '一组' })).E_ID).toBe(b.E_ID);
  });

  it.each([
    ['-1', 400],
    ['0', 200],
    ['7', 200],
    ['8', 400],
    ['x', 400],
  ])('priority %s answers %i', async (priority, status) => {
    const a = await org();
    const res = await a.api.post('/api/THChannel/SaveChannel', form({ cname: channelName(), priority }));
    if (status === 200) {
      expect(data<ChannelRow>(res).Priority).toBe(Number(priority));
    } else {
      const body = expectFailure(res, 400, 4000);
      expect(body.Data?.[0]).toMatchObject({ field: 'priority' });
      expect(await channelCount(a.E_ID)).toBe(0);
    }
  });

  it('limits the type to the ChannelTypeID list: only 106 by default', async () => {
    const a = await org();
    for (const type of ['105', '103', '107', '999']) {
      const res = await a.api.post('/api/THChannel/SaveChannel', form({ cname: channelName(), ctypeid: type }));
      expect(expectFailure(res, 400, 4000, 'channel.type_not_allowed').Data).toEqual([
        { field: 'ctypeid', key: 'channel.type_not_allowed' },
      ]);
    }
    expect(await channelCount(a.E_ID)).toBe(0);
    expect(
      (await a.api.post('/api/Account/ModifyConfig', form({ scCode: 'ChannelTypeID', scValue: '105,107' }))).statusCode,
    ).toBe(200);
    expect((await saveChannel(a.api, { ctypeid: 105 })).CTypeID).toBe(105);
    expect((await saveChannel(a.api)).CTypeID).toBe(105);
    expectFailure(
      await a.api.post('/api/THChannel/SaveChannel', form({ cname: channelName(), ctypeid: 106 })),
      400,
      4000,
      'channel.type_not_allowed',
    );
  });

  it('allows video only where the enterprise has VideoEnable TRUE', async () => {
    const a = await org();
    const res = await a.api.post('/api/THChannel/SaveChannel', form({ cname: channelName(), videoEnable: 'true' }));
    expectFailure(res, 400, 4000, 'channel.video_disabled');
    const plain = await saveChannel(a.api);
    expectFailure(
      await a.api.post('/api/THChannel/UpdateChannel', form({ cid: plain.CID, videoEnable: '1' })),
      400,
      4000,
      'channel.video_disabled',
    );
    await setConfig(a.E_ID, 'VideoEnable', 'TRUE');
    expect((await saveChannel(a.api, { videoEnable: 'true' })).VideoEnable).toBe(1);
    expect(
      data<ChannelRow>(await a.api.post('/api/THChannel/UpdateChannel', form({ cid: plain.CID, videoEnable: '1' })))
        .VideoEnable,
    ).toBe(1);
  });

  it('takes a JSON body too, and eid names a sub-enterprise in scope; outside the scope it is 4004', async () => {
    const parent = await org();
    const child = await org({ parentId: parent.E_ID });
    const stranger = await org();
    const made = data<ChannelRow>(
      await parent.api.postJson('/api/THChannel/SaveChannel', { eid: child.E_ID, cname: 'sub', priority: 3 }),
    );
    expect(made).toMatchObject({ E_ID: child.E_ID, Priority: 3 });
    expectFailure(
      await parent.api.postJson('/api/THChannel/SaveChannel', { eid: stranger.E_ID, cname: 'x' }),
      404,
      4004,
      'error.not_found',
    );
    expectFailure(await child.api.postJson('/api/THChannel/SaveChannel', { eid: parent.E_ID, cname: 'x' }), 404, 4004);
    expect(await channelCount(stranger.E_ID)).toBe(0);
    expect(await channelCount(parent.E_ID)).toBe(0);
  });
});

describe('POST /api/Channel/CreateWebChannel', () => {
  it('creates a channel with its members in one call; member priority defaults to the user priority', async () => {
    const a = await org();
    const low = await insertUsers(a.E_ID, 2, { PriorityLevel: 1 });
    const high = await insertUsers(a.E_ID, 1, { PriorityLevel: 6 });
    const uids = [...low, ...high].join(',');
    const channel = data<ChannelRow>(
      await a.api.post('/api/Channel/CreateWebChannel', form({ cname: '车队', uids, priority: 5 })),
    );
    expect(channel).toMatchObject({ CName: '车队', MemberCount: 3, Priority: 5 });
    const members = rows<{ UserID: number; Priority: number }>(
      await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}&orderField=Priority&desc=true`),
    );
    expect(members.rows.map((m) => m.Priority)).toEqual([6, 1, 1]);
    const fixed = data<ChannelRow>(
      await a.api.postJson('/api/Channel/CreateWebChannel', { cname: channelName(), uids: low, memberPriority: 7 }),
    );
    const fixedMembers = rows<{ Priority: number }>(await a.api.get(`/api/THChannel/QueryCMember?cid=${fixed.CID}`));
    expect(fixedMembers.rows.map((m) => m.Priority)).toEqual([7, 7]);
    await expectLogCount(a.E_ID, 'channel_create', 2);
  });

  it('refuses empty members (channel.members_empty) and creates nothing', async () => {
    const a = await org();
    for (const payload of [form({ cname: channelName(), uids: '' }), form({ cname: channelName() })]) {
      expectFailure(await a.api.post('/api/Channel/CreateWebChannel', payload), 400, 4000);
    }
    const res = await a.api.postJson('/api/Channel/CreateWebChannel', { cname: channelName(), uids: [] });
    expect(expectFailure(res, 400, 4000, 'channel.members_empty').Data).toEqual([
      { field: 'uids', key: 'channel.members_empty' },
    ]);
    expect(await channelCount(a.E_ID)).toBe(0);
  });

  it('refuses a member of another enterprise (4004) or of a sub-enterprise (4000), creating nothing', async () => {
    const a = await org();
    const child = await org({ parentId: a.E_ID });
    const b = await org();
    const own = await insertUsers(a.E_ID, 2);
    const [foreign] = await insertUsers(b.E_ID, 1);
    const [sub] = await insertUsers(child.E_ID, 1);
    const res = await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'mixed', uids: [...own, foreign] });
    expectFailure(res, 404, 4004, 'error.not_found');
    const subRes = await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'mixed', uids: [...own, sub] });
    expectFailure(subRes, 400, 4000, 'channel.member_enterprise');
    expect(await channelCount(a.E_ID)).toBe(0);
    await expectLogCount(a.E_ID, 'channel_create', 0);
  });
});
