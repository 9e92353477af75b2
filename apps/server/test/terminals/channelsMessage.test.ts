import { TerminalErrors, type TerminalChannel } from '@intercom/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { authed, createEnterprise, loginAdmin } from '../helper.js';
import { sleep } from '../hub/hubTestApp.js';
import { createChannel, isType, seatOf } from '../talk/talkFixtures.js';
import { csv, report, upload } from '../userImportFixtures.js';
import { FAST_TERMINALS, TestTerminal, createTerminalUser, loggedIn, startTerminalApp } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// `channels` and `channelsChanged` (docs/terminal-protocol.md, Channel selection): what a field
// app's channel switcher shows, and the push that tells it to ask again.
// Test terminals send no heartbeats: a minute's grace, so an import's seconds do not close them.
const t = useTestApp(() => startTerminalApp({ ...FAST_TERMINALS, heartbeatTimeoutMs: 60_000 }));
let api: ReturnType<typeof authed>;
let adminToken: string;

beforeAll(async () => {
  // One session per account: this login replaces the app's own, so the seat below uses this token.
  adminToken = await loginAdmin(t);
  api = authed(t.app, adminToken);
});

async function users(count: number, E_ID = t.demo.E_ID) {
  const made = [];
  for (let i = 0; i < count; i++) made.push(await createTerminalUser(t, { E_ID }));
  return made;
}

/** The `channels` ack of a terminal, or fails. */
async function channelsOf(terminal: TestTerminal): Promise<TerminalChannel[]> {
  const reply = await terminal.request({ type: 'channels' });
  expect(reply.type, JSON.stringify(reply)).toBe('ack');
  return reply.channels as TerminalChannel[];
}

describe('channels', () => {
  it("lists the user's channels of its enterprise by name, with members and how many are online", async () => {
    const [me, friend, away] = await users(3);
    if (!me || !friend || !away) throw new Error('three users');
    const ids = (list: (typeof me)[]) => list.map((u) => ({ U_ID: u.U_ID }));
    const yard = await createChannel(t, t.demo.E_ID, ids([me, friend, away]));
    await t.db
      .updateTable('channel')
      .set({ CName: `Yard ${yard}` })
      .where('CID', '=', yard)
      .execute();
    const gate = await createChannel(t, t.demo.E_ID, ids([me]));
    await t.db
      .updateTable('channel')
      .set({ CName: `Gate ${gate}` })
      .where('CID', '=', gate)
      .execute();
    // A channel the user is not in, of its enterprise, is not listed.
    await createChannel(t, t.demo.E_ID, ids([friend]));
    const terminal = await loggedIn(t, me.phone);
    const other = await loggedIn(t, friend.phone);

    expect(await channelsOf(terminal)).toEqual([
      { cid: gate, name: `Gate ${gate}`, online: 1, members: 1 },
      { cid: yard, name: `Yard ${yard}`, online: 2, members: 3 },
    ]);
    other.close();
    await other.closed;
    // Offline once the gateway has let the user go (FAST_TERMINALS: no offline grace).
    await expect.poll(async () => (await channelsOf(terminal)).find((c) => c.cid === yard)?.online).toBe(1);
    terminal.close();
  });

  it('is empty for a user in no channel; a user of another enterprise never sees this one', async () => {
    const other = await createEnterprise(t.db);
    const [stranger] = await users(1, other.E_ID);
    const [mine] = await users(1);
    if (!stranger || !mine) throw new Error('two users');
    await createChannel(t, t.demo.E_ID, [{ U_ID: mine.U_ID }]);
    const terminal = await loggedIn(t, stranger.phone);
    expect(await channelsOf(terminal)).toEqual([]);
    terminal.close();
  });

  it('refuses a seat (not_supported), a terminal not logged in, and a malformed request', async () => {
    const seat = await seatOf(t, adminToken);
    expect(await seat.request({ type: 'channels' })).toMatchObject({
      type: 'error',
      code: TerminalErrors.notSupported,
    });
    seat.close();
    const fresh = await TestTerminal.connect(t);
    expect(await fresh.request({ type: 'channels' })).toMatchObject({
      type: 'error',
      code: TerminalErrors.notLoggedIn,
    });
    const [user] = await users(1);
    if (!user) throw new Error('a user');
    expect((await fresh.login(user.phone)).type).toBe('ack');
    fresh.socket.send(JSON.stringify({ seq: -3, type: 'channels' }));
    await fresh.next(isType('error', { seq: null, code: TerminalErrors.invalid }));
    fresh.socket.send(JSON.stringify({ seq: 4.5, type: 'channels' }));
    await expect.poll(() => fresh.received.filter(isType('error', { code: TerminalErrors.invalid })).length).toBe(2);
    // Still answered after the bad ones.
    expect(await channelsOf(fresh)).toEqual([]);
    fresh.close();
  });
});

describe('channelsChanged', () => {
  it('is pushed to users added to or removed from a channel, or whose channel is renamed or deleted; not to others', async () => {
    const [member, joiner, bystander] = await users(3);
    if (!member || !joiner || !bystander) throw new Error('three users');
    const cid = await createChannel(t, t.demo.E_ID, [{ U_ID: member.U_ID }]);
    const onMember = await loggedIn(t, member.phone);
    const onJoiner = await loggedIn(t, joiner.phone);
    const onBystander = await loggedIn(t, bystander.phone);
    const pushes = (terminal: TestTerminal) => terminal.received.filter(isType('channelsChanged')).length;

    const add = await api.postJson('/api/THChannel/CMemberChange', { cid, action: 'add', uids: [joiner.U_ID] });
    expect(add.statusCode, add.body).toBe(200);
    await expect.poll(() => pushes(onJoiner)).toBe(1);
    expect((await channelsOf(onJoiner)).map((c) => c.cid)).toEqual([cid]);

    const rename = await api.post('/api/THChannel/ChangeChannelName', {
      cid: String(cid),
      channelName: `Renamed ${cid}`,
    });
    expect(rename.statusCode, rename.body).toBe(200);
    await expect.poll(() => [pushes(onMember), pushes(onJoiner)]).toEqual([1, 2]);
    expect((await channelsOf(onMember))[0]).toMatchObject({ cid, name: `Renamed ${cid}` });

    const remove = await api.postJson('/api/THChannel/CMemberChange', { cid, action: 'remove', uids: [joiner.U_ID] });
    expect(remove.statusCode, remove.body).toBe(200);
    await expect.poll(() => pushes(onJoiner)).toBe(3);
    expect(await channelsOf(onJoiner)).toEqual([]);

    const rooms = await api.postJson('/api/THChannel/URoomChange', { uid: joiner.U_ID, cids: [cid] });
    expect(rooms.statusCode, rooms.body).toBe(200);
    await expect.poll(() => pushes(onJoiner)).toBe(4);

    const deleted = await api.delete(`/api/THChannel/DeleteChannel?cid=${cid}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expect.poll(() => [pushes(onMember), pushes(onJoiner)]).toEqual([2, 5]);
    expect(await channelsOf(onMember)).toEqual([]);

    // None of the above reached the user in none of these channels.
    await sleep(100);
    expect(pushes(onBystander)).toBe(0);
    for (const terminal of [onMember, onJoiner, onBystander]) terminal.close();
  });

  it('is pushed to a known user whom an import adds to a channel; not to a user the import leaves alone', async () => {
    const [known, bystander] = await users(2);
    if (!known || !bystander) throw new Error('two users');
    const cid = await createChannel(t, t.demo.E_ID, []);
    const { CName } = await t.db.selectFrom('channel').select('CName').where('CID', '=', cid).executeTakeFirstOrThrow();
    const onKnown = await loggedIn(t, known.phone);
    const onBystander = await loggedIn(t, bystander.phone);
    const pushes = (terminal: TestTerminal) => terminal.received.filter(isType('channelsChanged')).length;

    const imported = report(
      await upload(api, csv([{ MobilePhone: known.phone, UserName: 'Imported', Channels: CName }])),
    );
    expect(imported).toMatchObject({ updated: 1 });
    await expect.poll(() => pushes(onKnown)).toBe(1);
    expect((await channelsOf(onKnown)).map((c) => c.cid)).toEqual([cid]);
    await sleep(100);
    expect(pushes(onBystander)).toBe(0);
    for (const terminal of [onKnown, onBystander]) terminal.close();
  });
});
