import type { ChannelRow, ChannelMemberRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from './helper.js';
import { data, form, rows, saveChannel, useChannelApp } from './channelFixtures.js';

const { t, colleague, expectLogCount, insertUsers, logged, memberIds, org, setConfig } = useChannelApp();

describe('edit, rename, record switch, delete', () => {
  it('UpdateChannel and ChangeChannelName keep the rules and log before/after', async () => {
    const a = await org();
    const one = await saveChannel(a.api, { cname: 'one' });
    await saveChannel(a.api, { cname: 'two' });
    expectFailure(
      await a.api.post('/api/THChannel/ChangeChannelName', form({ cid: one.CID, channelName: 'two' })),
      409,
      4009,
      'common.name_exists',
    );
    expectFailure(
      await a.api.post('/api/THChannel/ChangeChannelName', form({ cid: one.CID, channelName: '一'.repeat(21) })),
      400,
      4000,
      'validation.too_long',
    );
    const renamed = data<ChannelRow>(
      await a.api.post(
        '/api/THChannel/ChangeChannelName',
        form({ eid: a.E_ID, cid: one.CID, channelName: '一'.repeat(20) }),
      ),
    );
    expect(renamed.CName).toBe('一'.repeat(20));
    const [rename] = await logged(a.E_ID, 'channel_rename');
    expect(JSON.parse(rename?.Summary ?? '{}')).toEqual({ CName: ['one', '一'.repeat(20)] });
    const edited = data<ChannelRow>(
      await a.api.post('/api/THChannel/UpdateChannel', form({ cid: one.CID, note: 'n', priority: 7 })),
    );
    expect(edited).toMatchObject({ Note: 'n', Priority: 7, CName: '一'.repeat(20) });
    expectFailure(await a.api.post('/api/THChannel/UpdateChannel', form({ cid: one.CID, priority: 8 })), 400, 4000);
    expectFailure(
      await a.api.post('/api/THChannel/UpdateChannel', form({ cid: one.CID, ctypeid: 107 })),
      400,
      4000,
      'channel.type_not_allowed',
    );
    await expectLogCount(a.E_ID, 'channel_update', 1);
  });

  it('SwitchRecord needs RecordEnable to switch on; off always works; each change is logged', async () => {
    const a = await org();
    const channel = await saveChannel(a.api);
    const on = form({ eid: a.E_ID, cid: channel.CID, record: 'true' });
    expectFailure(await a.api.post('/api/Channel/SwitchRecord', on), 400, 4000, 'channel.record_disabled');
    await setConfig(a.E_ID, 'RecordEnable', 'TRUE');
    expect(data<ChannelRow>(await a.api.post('/api/Channel/SwitchRecord', on)).Record).toBe(1);
    expect(data<ChannelRow>(await a.api.get(`/api/Channel/Entitys/${channel.CID}`)).Record).toBe(1);
    await setConfig(a.E_ID, 'RecordEnable', 'FALSE');
    expect(
      data<ChannelRow>(await a.api.post('/api/Channel/SwitchRecord', form({ cid: channel.CID, record: 0 }))).Record,
    ).toBe(0);
    await expectLogCount(a.E_ID, 'channel_record', 2);
  });

  it('DeleteChannel removes the channel and its members; another enterprise gets 4004', async () => {
    const a = await org();
    const b = await org();
    const uids = await insertUsers(a.E_ID, 3);
    const channel = data<ChannelRow>(await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'gone', uids }));
    expectFailure(await b.api.delete(`/api/THChannel/DeleteChannel?eid=${b.E_ID}&cid=${channel.CID}`), 404, 4004);
    expectFailure(await b.api.delete(`/api/Channel/Delete/${channel.CID}`), 404, 4004);
    expectFailure(await a.api.delete(`/api/THChannel/DeleteChannel?eid=${b.E_ID}&cid=${channel.CID}`), 404, 4004);
    expectSuccess(await a.api.delete(`/api/THChannel/DeleteChannel?eid=${a.E_ID}&cid=${channel.CID}`));
    expect(await memberIds(channel.CID)).toEqual([]);
    expectFailure(await a.api.get(`/api/Channel/Entitys/${channel.CID}`), 404, 4004);
    const [row] = await logged(a.E_ID, 'channel_delete');
    expect(JSON.parse(row?.Summary ?? '{}')).toMatchObject({ CID: channel.CID, members: 3 });
    const other = await saveChannel(a.api);
    expectSuccess(await a.api.delete(`/api/Channel/Delete/${other.CID}`));
    await expectLogCount(a.E_ID, 'channel_delete', 2);
  });

  it('a path id is decimal digits: 1e0 or 0x.. spellings of an id are refused and change nothing', async () => {
    const a = await org();
    const channel = await saveChannel(a.api);
    const hex = `0x${channel.CID.toString(16)}`;
    for (const spelling of [`${channel.CID}e0`, hex, `${channel.CID}.0`, ` ${channel.CID}`, '-1', '99999999999']) {
      expectFailure(await a.api.delete(`/api/Channel/Delete/${encodeURIComponent(spelling)}`), 400, 4000);
    }
    expect(data<ChannelRow>(await a.api.get(`/api/Channel/Entitys/${channel.CID}`))).toMatchObject({
      CID: channel.CID,
    });
  });

  it('every channel call answers 4004 for a channel of another enterprise', async () => {
    const a = await org();
    const b = await org();
    const [bUser] = await insertUsers(b.E_ID, 1);
    const theirs = data<ChannelRow>(
      await b.api.postJson('/api/Channel/CreateWebChannel', { cname: 'theirs', uids: [bUser] }),
    );
    const cid = theirs.CID;
    const calls = [
      a.api.get(`/api/Channel/Entitys/${cid}`),
      a.api.post('/api/THChannel/UpdateChannel', form({ cid, note: 'x' })),
      a.api.post('/api/THChannel/ChangeChannelName', form({ cid, channelName: 'x' })),
      a.api.post('/api/Channel/SwitchRecord', form({ cid, record: 0 })),
      a.api.get(`/api/THChannel/QueryCMember?cid=${cid}`),
      a.api.get(`/api/THChannel/QueryGroup?cid=${cid}`),
      a.api.get(`/api/THChannel/QueryGroup?eid=${b.E_ID}`),
      a.api.get(`/api/THChannel/QueryChannel?eid=${b.E_ID}`),
      a.api.get(`/api/THCustDevice/DispatchNo?eid=${b.E_ID}`),
      a.api.post('/api/THChannel/BChangeMemPri', form({ rid: cid, uids: String(bUser), priority: 1 })),
    ];
    for (const res of await Promise.all(calls)) expectFailure(res, 404, 4004, 'error.not_found');
    const list = rows(
      await a.api.get(`/api/Channel/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ CID: cid }))}`),
    );
    expect(list.total).toBe(0);
    expect(data<ChannelRow>(await b.api.get(`/api/Channel/Entitys/${cid}`))).toMatchObject({
      CName: 'theirs',
      Note: '',
      MemberCount: 1,
    });
  });

  it('an editor manages channels and members (day-to-day work)', async () => {
    const a = await org();
    const editor = await colleague(a, 'editor');
    const uids = await insertUsers(a.E_ID, 2);
    const channel = data<ChannelRow>(
      await editor.api.postJson('/api/Channel/CreateWebChannel', { cname: 'by editor', uids }),
    );
    expect(
      data(
        await editor.api.post(
          '/api/THChannel/ChangeMemPriority',
          form({ rid: channel.CID, uid: uids[0]!, priority: 2 }),
        ),
      ),
    ).toMatchObject({ changed: 1 });
    expectSuccess(await editor.api.delete(`/api/THChannel/DeleteChannel?cid=${channel.CID}`));
  });
});

describe('lists, tree and dispatch numbers', () => {
  it('Channel/QueryData searches, sorts by MemberCount and exports CSV', async () => {
    const a = await org();
    const uids = await insertUsers(a.E_ID, 3);
    await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'Alpha', note: 'north', uids });
    await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'Bravo', uids: uids.slice(0, 1) });
    await saveChannel(a.api, { cname: 'Charlie', note: 'NORTH gate' });
    const q = (condition: object, extra = '') =>
      a.api.get(`/api/Channel/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify(condition))}${extra}`);
    expect(rows<ChannelRow>(await q({ Search: 'north' })).rows.map((c) => c.CName)).toEqual(['Alpha', 'Charlie']);
    expect(
      rows<ChannelRow>(await q({}, '&orderField=MemberCount&desc=true')).rows.map((c) => [c.CName, c.MemberCount]),
    ).toEqual([
      ['Alpha', 3],
      ['Bravo', 1],
      ['Charlie', 0],
    ]);
    expect(rows<ChannelRow>(await q({ Member: uids[1] })).rows.map((c) => c.CName)).toEqual(['Alpha']);
    expectFailure(await q({ Secret: 1 }), 400, 4000, 'query.unknown_field');
    const csv = await a.api.get('/api/Channel/ExportData');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe(
      '\uFEFFCID,E_ID,CName,CTypeID,Note,Priority,VideoEnable,Record,MemberCount,CreatedAt',
    );
    expect(csv.body).toContain('Bravo');
  });

  it('QueryGroup returns channel nodes (video, group) and pages of member nodes (other)', async () => {
    const a = await org();
    await setConfig(a.E_ID, 'VideoEnable', 'TRUE');
    const uids = await insertUsers(a.E_ID, 3);
    const video = data<ChannelRow>(
      await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'cams', videoEnable: true, uids }),
    );
    const talk = await saveChannel(a.api, { cname: 'talk' });
    const tree = rows<Record<string, unknown>>(await a.api.get('/api/THChannel/QueryGroup'));
    expect(tree.rows.map((n) => [n.id, n.pId, n.pid, n.name, n.text, n.type, n.count, n.isParent])).toEqual([
      [`C${video.CID}`, '0', '0', 'cams', 'cams', 'video', 3, true],
      [`C${talk.CID}`, '0', '0', 'talk', 'talk', 'group', 0, false],
    ]);
    await a.api.post('/api/THChannel/ChangeMemPriority', form({ rid: video.CID, uid: uids[2]!, priority: 5 }));
    const members = rows<Record<string, unknown>>(
      await a.api.get(`/api/THChannel/QueryGroup?cid=${video.CID}&limit=2`),
    );
    expect(members.total).toBe(3);
    expect(members.rows.map((n) => [n.id, n.pId, n.type, n.uid, n.priority])).toEqual([
      [`C${video.CID}-U${uids[2]}`, `C${video.CID}`, 'other', uids[2], 5],
      [`C${video.CID}-U${uids[0]}`, `C${video.CID}`, 'other', uids[0], 0],
    ]);
  });

  it('QueryCMember lists non-members and everybody for pickers, with a department filter', async () => {
    const a = await org();
    const organ = await t.db
      .insertInto('organ')
      .values({ E_ID: a.E_ID, OSParentID: 0, OSName: 'Ops', U_TypeID: 0, PriorityLevel: 0 })
      .returning('OSID')
      .executeTakeFirstOrThrow();
    const sub = await t.db
      .insertInto('organ')
      .values({ E_ID: a.E_ID, OSParentID: organ.OSID, OSName: 'Night', U_TypeID: 0, PriorityLevel: 0 })
      .returning('OSID')
      .executeTakeFirstOrThrow();
    const [inOps] = await insertUsers(a.E_ID, 1, { OS_ID: organ.OSID });
    const [inNight] = await insertUsers(a.E_ID, 1, { OS_ID: sub.OSID });
    const [loose] = await insertUsers(a.E_ID, 1);
    const channel = data<ChannelRow>(
      await a.api.postJson('/api/Channel/CreateWebChannel', { cname: 'pick', uids: [inNight] }),
    );
    const out = rows<ChannelMemberRow>(await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}&members=out`));
    expect(out.rows.map((m) => m.UserID)).toEqual([inOps, loose]);
    const all = rows<ChannelMemberRow>(
      await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}&members=all&OS_ID=${organ.OSID}`),
    );
    expect(all.rows.map((m) => [m.UserID, m.IsMember, m.OSName])).toEqual([
      [inOps, 0, 'Ops'],
      [inNight, 1, 'Night'],
    ]);
    const none = rows<ChannelMemberRow>(
      await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}&members=all&OS_ID=0`),
    );
    expect(none.rows.map((m) => m.UserID)).toEqual([loose]);
    expectFailure(
      await a.api.get(`/api/THChannel/QueryCMember?cid=${channel.CID}&orderField=PasswordHash`),
      400,
      4000,
      'query.bad_order_field',
    );
  });

  it('DispatchNo lists the enabled console accounts of the enterprise as seats', async () => {
    const a = await org();
    const editor = await colleague(a, 'editor');
    const seats = rows<{ DispatchNo: string; A_ID: number; Self: boolean; Role: string }>(
      await editor.api.get('/api/THCustDevice/DispatchNo'),
    );
    expect(seats.rows).toEqual([
      expect.objectContaining({ DispatchNo: `D${a.A_ID}`, A_ID: a.A_ID, Role: 'admin', Self: false }),
      expect.objectContaining({ DispatchNo: `D${editor.A_ID}`, A_ID: editor.A_ID, Role: 'editor', Self: true }),
    ]);
  });
});
