import { TalkErrors, TerminalCloseCodes } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { accountSession, authed, createEnterprise, enterpriseWithAccount, expectSuccess } from '../helper.js';
import { FAST_HUB } from '../hub/hubTestApp.js';
import { FAST_TERMINALS, TestTerminal, startTerminalApp } from '../terminals/terminalTestApp.js';
import { FAST_TALK, SPEECH, channelOf, isType, joinAll, readDown, talk, waitFor } from './talkFixtures.js';
import { useTestApp } from '../useTestApp.js';

// Issue 30.1: a dispatcher seat lives only as long as the console session that opened it.
const t = useTestApp(() =>
  startTerminalApp(
    { ...FAST_TERMINALS, heartbeatTimeoutMs: 30_000, seatCheckMs: 100 },
    FAST_HUB,
    {},
    { talk: FAST_TALK },
  ),
);
const GOOD_PASSWORD = 'Good#2026pw';

async function authCode(token: string): Promise<string> {
  const res = await authed(t.app, token).post('/api/Talk/AuthCode');
  return (expectSuccess(res).BaseData as { authCode: string }).authCode;
}

async function seat(token: string): Promise<TestTerminal> {
  const terminal = await TestTerminal.connect(t);
  const reply = await terminal.request({ type: 'login', authCode: await authCode(token) });
  if (reply.type !== 'ack') throw new Error(`seat refused: ${JSON.stringify(reply)}`);
  return terminal;
}

/** A second open session of the same account, as two desks would hold (inserted: a login replaces the first). */
async function extraSession(account: { A_ID: number; E_ID: number }): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await t.db
    .insertInto('session')
    .values({
      E_ID: account.E_ID,
      A_ID: account.A_ID,
      TokenHash: hashToken(token),
      RefreshHash: hashToken(newToken()),
      ClientId: 'console',
      IP: '127.0.0.1',
      CreatedAt: now,
      LastSeenAt: now,
      ExpiresAt: now + 3_600_000,
      EndedAt: null,
      EndReason: null,
    })
    .execute();
  return token;
}

/** The seat was closed by the server with `code`, after a `closing` message with `reason`. */
async function closedWith(terminal: TestTerminal, code: number, reason: string): Promise<void> {
  expect(await terminal.closed).toBe(code);
  expect(terminal.received.find((m) => m.type === 'closing')).toMatchObject({ reason });
}

describe('a seat is bound to its session', () => {
  it('refuses an AuthCode whose session ended before it was redeemed', async () => {
    const dispatcher = await enterpriseWithAccount(t);
    const code = await authCode(dispatcher.token);
    expectSuccess(await authed(t.app, dispatcher.token).post('/api/Account/Logout'));
    const terminal = await TestTerminal.connect(t);
    expect(await terminal.request({ type: 'login', authCode: code })).toMatchObject({
      type: 'error',
      code: TalkErrors.badAuthCode,
    });
    terminal.close();
  });

  it.each([
    ['the dispatcher logs out', 'logout', (d: Dispatcher) => d.api.post('/api/Account/Logout')],
    [
      'an administrator disables the account',
      'frozen',
      (d: Dispatcher) => d.admin.post('/api/Account/Disable', { A_ID: String(d.A_ID), Disabled: 'true' }),
    ],
    [
      'an administrator gives it a new password',
      'password',
      (d: Dispatcher) => d.admin.post('/api/Account/ResetPassword', { A_ID: String(d.A_ID), Password: GOOD_PASSWORD }),
    ],
    [
      'an administrator edits it with a new password',
      'password',
      (d: Dispatcher) =>
        d.admin.post('/api/Account/Save', { A_ID: String(d.A_ID), Name: 'Desk', Password: GOOD_PASSWORD }),
    ],
    [
      'an administrator deletes the account',
      'deleted',
      (d: Dispatcher) => d.admin.delete(`/api/Account/Delete/${d.A_ID}`),
    ],
    [
      'the enterprise is frozen',
      'frozen',
      (d: Dispatcher) => d.parent.post('/api/Enterprise/Save', { E_ID: String(d.E_ID), Disabled: 'true' }),
    ],
  ])('closes the seat at once (4002) when %s, and it hears nothing more', async (_, reason, act) => {
    const d = await dispatcher();
    const { cid, members } = await channelOf(t, d.E_ID, [0]);
    await joinAll(members, cid);
    const desk = await seat(d.token);
    expect(await desk.request({ type: 'join', cid })).toMatchObject({ type: 'ack' });
    expectSuccess(await act(d));
    // At once: well inside the periodic check's 100 ms would not prove it, so the check is not relied on.
    await closedWith(desk, TerminalCloseCodes.accountChanged, reason);
    const talker = members[0]!.terminal;
    expect(await talker.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'ack', granted: true });
    const before = desk.frames.length;
    await talk(talker, cid, SPEECH.slice(0, 5));
    await talker.request({ type: 'floorRelease', cid });
    expect(desk.frames.length).toBe(before);
  });

  it('closes the seat when its session times out, though nobody announced it', async () => {
    const d = await dispatcher();
    const desk = await seat(d.token);
    await t.db
      .updateTable('session')
      .set({ LastSeenAt: Date.now() - 31 * 60_000 })
      .where('A_ID', '=', d.A_ID)
      .where('EndedAt', 'is', null)
      .execute();
    await closedWith(desk, TerminalCloseCodes.accountChanged, 'session_end');
  });

  it('one seat per session: a second seat login from it replaces the first (4001)', async () => {
    const d = await dispatcher();
    const first = await seat(d.token);
    const second = await seat(d.token);
    await closedWith(first, TerminalCloseCodes.replaced, 'replaced');
    const { cid } = await channelOf(t, d.E_ID, [0]);
    expect(await second.request({ type: 'join', cid })).toMatchObject({ type: 'ack' });
    second.close();
  });

  it('an account holds at most TALK_MAX_SEATS_PER_ACCOUNT (2) seats: a third replaces the oldest', async () => {
    const d = await dispatcher();
    const desk = await seat(d.token);
    const spare = await seat(await extraSession(d));
    const third = await seat(await extraSession(d));
    await closedWith(desk, TerminalCloseCodes.replaced, 'replaced');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(spare.closeCode).toBeUndefined();
    expect(third.closeCode).toBeUndefined();
    spare.close();
    third.close();
  });

  it('two seats of one account are two talkers: one holds the floor, the other is busy and unheard', async () => {
    const d = await dispatcher();
    const { cid, members } = await channelOf(t, d.E_ID, [0]);
    await joinAll(members, cid);
    const desk = await seat(d.token);
    const spare = await seat(await extraSession(d));
    for (const s of [desk, spare]) expect(await s.request({ type: 'join', cid })).toMatchObject({ type: 'ack' });
    expect(await desk.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'ack', granted: true });
    expect(await spare.request({ type: 'floorRequest', cid })).toMatchObject({ code: TalkErrors.busy });
    // The spare's frames are not the holder's: the terminal hears the desk only.
    const listener = members[0]!.terminal;
    await talk(spare, cid, SPEECH.slice(0, 5));
    await talk(desk, cid, SPEECH.slice(0, 3));
    await waitFor(() => listener.frames.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listener.frames.map((f) => readDown(f).seq)).toEqual([0, 1, 2]);
    desk.close();
    spare.close();
  });
});

describe('the seat reads its scope at use', () => {
  it('a working enterprise switched to a branch stops the seat hearing the head office at once', async () => {
    const head = await enterpriseWithAccount(t);
    const branch = await createEnterprise(t.db, { parentId: head.E_ID });
    const { cid: headCid, members } = await channelOf(t, head.E_ID, [0]);
    const { cid: branchCid } = await channelOf(t, branch.E_ID, [0]);
    await joinAll(members, headCid);
    const desk = await seat(head.token);
    expect(await desk.request({ type: 'join', cid: headCid })).toMatchObject({ type: 'ack' });
    expectSuccess(await authed(t.app, head.token).post('/api/Enterprise/SwitchWorking', { E_ID: String(branch.E_ID) }));
    await desk.next(isType('channelLeft', { cid: headCid }));
    const talker = members[0]!.terminal;
    expect(await talker.request({ type: 'floorRequest', cid: headCid })).toMatchObject({ type: 'ack' });
    await talk(talker, headCid, SPEECH.slice(0, 5));
    await talker.request({ type: 'floorRelease', cid: headCid });
    expect(desk.frames).toHaveLength(0);
    expect(await desk.request({ type: 'join', cid: headCid })).toMatchObject({ code: TalkErrors.notMember });
    expect(await desk.request({ type: 'join', cid: branchCid })).toMatchObject({ type: 'ack' });
    desk.close();
  });
});

describe('recordings name the seat', () => {
  it("a dispatcher's burst is recorded with its dispatch number and account name", async () => {
    const d = await dispatcher();
    await t.db
      .insertInto('sys_config')
      .values({ E_ID: d.E_ID, Code: 'RecordEnable', Value: 'TRUE' })
      .onConflict((oc) => oc.columns(['E_ID', 'Code']).doUpdateSet({ Value: 'TRUE' }))
      .execute();
    const { cid, members } = await channelOf(t, d.E_ID, [0], true);
    await joinAll(members, cid);
    const desk = await seat(d.token);
    expect(await desk.request({ type: 'join', cid })).toMatchObject({ type: 'ack' });
    expect(await desk.request({ type: 'floorRequest', cid })).toMatchObject({ granted: true });
    await talk(desk, cid, SPEECH.slice(0, 10));
    await desk.request({ type: 'floorRelease', cid });
    const api = authed(t.app, d.adminToken);
    const query = `/api/Recording/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ CID: cid }))}`;
    let rows: { UserName: string | null; MobilePhone: string | null; CID: number }[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i += 1) {
      rows = expectSuccess(await api.get(query)).Data as typeof rows;
      if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(rows).toEqual([expect.objectContaining({ CID: cid, UserName: d.name, MobilePhone: `D${d.A_ID}` })]);
    desk.close();
  });
});

interface Dispatcher {
  A_ID: number;
  E_ID: number;
  name: string;
  token: string;
  adminToken: string;
  api: ReturnType<typeof authed>;
  admin: ReturnType<typeof authed>;
  parent: ReturnType<typeof authed>;
}

/** An editor of a fresh branch enterprise, with that branch's admin and the head office's admin at hand. */
async function dispatcher(): Promise<Dispatcher> {
  const head = await enterpriseWithAccount(t);
  const branch = await enterpriseWithAccount(t, { parentId: head.E_ID });
  const editor = await accountSession(t, branch);
  const row = await t.db
    .selectFrom('account')
    .select(['Name', 'LoginName'])
    .where('A_ID', '=', editor.A_ID)
    .executeTakeFirstOrThrow();
  return {
    A_ID: editor.A_ID,
    E_ID: branch.E_ID,
    name: row.Name || row.LoginName,
    token: editor.token,
    adminToken: branch.token,
    api: authed(t.app, editor.token),
    admin: authed(t.app, branch.token),
    parent: authed(t.app, head.token),
  };
}
