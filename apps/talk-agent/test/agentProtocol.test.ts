import { CALL_ID_BASE, TalkAgentErrors, TalkErrors, VideoCodec, VideoErrors } from '@intercom/contract';
import { decodeVideoDown, encodeVideoUp } from '@intercom/terminal-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelOf, isType, joinAll, waitFor, type Member } from '../../server/test/talk/talkFixtures.js';
import type { TerminalTestApp } from '../../server/test/terminals/terminalTestApp.js';
import type { Agent } from '../src/agent.js';
import type { Microphone } from '../src/audio/audioBackend.js';
import { AGENT_VERSION } from '../src/version.js';
import { AgentClient, authCode, loginArgs, sleep, startServer, startTestAgent } from './agentFixtures.js';

// The talk (12002) and monitor (12001) services over real sockets, against a real server.
let t: TerminalTestApp;
let agent: Agent;
/** The agent's log lines (on stderr in production). */
const logged: string[] = [];

/** A microphone of silence-free tone frames, so ApplyMic sends real audio. */
const toneMicrophone: Microphone & { running: boolean } = {
  name: 'tone',
  running: false,
  timer: undefined as NodeJS.Timeout | undefined,
  start(onFrame) {
    this.running = true;
    const frame = new Int16Array(960).map((_, i) => Math.round(6000 * Math.sin(i / 8)));
    (this as { timer?: NodeJS.Timeout }).timer = setInterval(() => onFrame(frame), 20);
  },
  stop() {
    this.running = false;
    clearInterval((this as { timer?: NodeJS.Timeout }).timer);
  },
} as Microphone & { running: boolean };

beforeAll(async () => {
  t = await startServer();
  agent = await startTestAgent(
    t,
    {},
    {
      audio: { microphone: toneMicrophone, speaker: { name: 'test', write() {}, close() {} } },
      log: (line) => logged.push(line),
    },
  );
});
afterAll(async () => {
  await agent?.close();
  await t?.close();
});

describe('connections', () => {
  it('refuses a page of another origin, or none, before any command; accepts the server origin', async () => {
    await expect(AgentClient.connect(agent.talkPort, 'https://evil.example')).rejects.toThrow('HTTP 403');
    await expect(AgentClient.connect(agent.monitorPort, 'http://localhost:1234')).rejects.toThrow('HTTP 403');
    await expect(AgentClient.connect(agent.talkPort, '')).rejects.toThrow('HTTP 403');
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    expect((await client.command('LoginInfo')).ok).toBe(true);
    client.close();
  });

  it('answers bad JSON, an unknown command and bad arguments with error codes, and stays open', async () => {
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    client.sendText('{not json');
    expect(await client.next((m) => m.code === TalkAgentErrors.badJson)).toMatchObject({ id: null, ok: false });
    expect(await client.command('Dance')).toMatchObject({ ok: false, code: TalkAgentErrors.unknownCommand });
    expect(await client.command('GroupCall', { cid: 'seven' })).toMatchObject({
      ok: false,
      code: TalkAgentErrors.badRequest,
      message: expect.stringContaining('cid'),
    });
    expect(await client.command('Monitor', { cids: [1], extra: true })).toMatchObject({
      code: TalkAgentErrors.badRequest,
    });
    expect(await client.command('Login', { Proxy: t.origin })).toMatchObject({ code: TalkAgentErrors.badRequest });
    client.sendText(JSON.stringify({ id: 500 }));
    expect(await client.next((m) => m.id === 500)).toMatchObject({ code: TalkAgentErrors.unknownCommand });
    // Commands that need a seat say so before Login.
    for (const [cmd, args] of [
      ['GroupCall', { cid: 1 }],
      ['ApplyMic', {}],
      ['Monitor', { cids: [1] }],
      ['VideoList', {}],
      ['LogOut', {}],
    ] as const) {
      expect(await client.command(cmd, args)).toMatchObject({ ok: false, code: TalkAgentErrors.notLoggedIn });
    }
    expect(await client.command('LoginInfo')).toMatchObject({ ok: true, loggedIn: false, seat: null });
    client.close();
  });
});

describe('login', () => {
  it('refuses a used or expired AuthCode (bad_auth_code), a seat of another number, a Proxy not allowed', async () => {
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    const args = await loginArgs(t);
    // Asking again replaces the first code, which is then no longer valid: as good as expired.
    await authCode(t);
    expect(await client.command('Login', args)).toMatchObject({ ok: false, code: TalkErrors.badAuthCode });
    expect(await client.command('Login', { ...(await loginArgs(t)), RecvUid: 'D999999' })).toMatchObject({
      ok: false,
      code: TalkAgentErrors.accountMismatch,
    });
    expect(await client.command('Login', { ...(await loginArgs(t)), Proxy: 'http://127.0.0.1:9' })).toMatchObject({
      ok: false,
      code: TalkAgentErrors.badRequest,
    });
    expect(await client.command('LoginInfo')).toMatchObject({ loggedIn: false });
    // The operator's log names each refusal with its code.
    expect(logged.filter((line) => line.startsWith('talk Login #'))).toEqual([
      expect.stringMatching(/^talk Login #\d+: received$/),
      expect.stringMatching(new RegExp(`^talk Login #\\d+: ${TalkErrors.badAuthCode} in \\d+ ms: `)),
      expect.stringMatching(/: received$/),
      expect.stringMatching(new RegExp(`: ${TalkAgentErrors.accountMismatch} in \\d+ ms: `)),
      expect.stringMatching(/: received$/),
      expect.stringMatching(new RegExp(`: ${TalkAgentErrors.badRequest} in \\d+ ms: Proxy`)),
    ]);
    client.close();
  });

  it('logs in as seat D<A_ID>, tells LoginInfo, and LogOut ends the seat with an event', async () => {
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    const args = await loginArgs(t);
    logged.length = 0;
    const login = await client.command('Login', args);
    expect(login).toMatchObject({ ok: true, seat: { dispatchNo: `D${t.demo.A_ID}`, priority: 7 } });
    // Each step of the Login in the log, so a slow one shows where it waited; never the AuthCode.
    const id = String(login.id);
    expect(logged).toEqual([
      `talk Login #${id}: received`,
      expect.stringMatching(new RegExp(`^Login #${id}: /terminal of ${t.origin} open after \\d+ ms$`)),
      expect.stringMatching(new RegExp(`^Login #${id}: seat D${t.demo.A_ID} logged in after \\d+ ms$`)),
      expect.stringMatching(new RegExp(`^talk Login #${id}: ok in \\d+ ms$`)),
    ]);
    expect(logged.join('\n')).not.toContain(String(args.AuthCode));
    expect(await client.command('LoginInfo')).toMatchObject({ loggedIn: true, server: 'connected', cid: null });
    expect(await client.command('LogOut')).toMatchObject({ ok: true });
    await client.next((m) => m.event === 'loggedOut' && m.reason === 'logout');
    expect(await client.command('LoginInfo')).toMatchObject({ loggedIn: false });
    client.close();
  });
});

describe('talk commands', () => {
  it('GroupCall, Monitor, ApplyMic/FreeMic, PrivateCall, EndCall map onto the terminal protocol', async () => {
    const { cid, members } = await channelOf(t, t.demo.E_ID, [0, 0]);
    const other = await channelOf(t, t.demo.E_ID, [0]);
    await joinAll(members, cid);
    const terminal = members[0]!.terminal;
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    expect(await client.command('Login', await loginArgs(t))).toMatchObject({ ok: true });

    expect(await client.command('GroupCall', { cid })).toMatchObject({ ok: true, cid, priority: 7 });
    expect(await client.command('Monitor', { cids: [other.cid, 999_999] })).toMatchObject({
      ok: true,
      cids: [cid, other.cid].sort((a, b) => a - b),
      failed: [{ cid: 999_999, code: TalkErrors.notMember }],
    });

    // Push-to-talk: the floor is granted, the terminal sees the seat talk and hears its audio.
    expect(await client.command('ApplyMic')).toMatchObject({ ok: true, cid });
    await terminal.next(isType('floorTaken', { cid, uid: 0 }));
    await client.next((m) => m.event === 'floorTaken' && m.cid === cid);
    await client.next((m) => m.event === 'micLevel' && typeof m.level === 'number' && m.level > 0.3);
    const before = terminal.frames.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(terminal.frames.length).toBeGreaterThan(before);
    expect(await client.command('FreeMic')).toMatchObject({ ok: true, cid });
    expect(toneMicrophone.running).toBe(false);
    await terminal.next(isType('floorIdle', { cid }));

    // A terminal talking: the seat is told, and its floor request is busy... unless it pre-empts (7 > 0).
    expect(await terminal.request({ type: 'floorRequest', cid })).toMatchObject({ type: 'ack' });
    await client.next((m) => m.event === 'floorTaken' && m.uid === members[0]!.U_ID);
    expect(await client.command('ApplyMic', { cid })).toMatchObject({ ok: true });
    await terminal.next(isType('floorRevoked', { cid, reason: 'preempted' }));
    await client.command('FreeMic', { cid });

    // Private call to the terminal user; EndCall hangs it up.
    const call = await client.command('PrivateCall', { uid: members[1]!.U_ID });
    expect(call).toMatchObject({ ok: true, cid: expect.any(Number) });
    expect(call.cid as number).toBeGreaterThanOrEqual(CALL_ID_BASE);
    await members[1]!.terminal.next(isType('callStart', { cid: call.cid }));
    expect(await client.command('LoginInfo')).toMatchObject({ cid: call.cid, calls: [call.cid] });
    expect(await client.command('EndCall')).toMatchObject({ ok: true, cid: call.cid });
    await members[1]!.terminal.next(isType('callEnd', { cid: call.cid }));
    expect(await client.command('EndCall', { cid: call.cid })).toMatchObject({ ok: false, code: TalkErrors.notFound });
    expect(await client.command('PrivateCall', { uid: 999_999 })).toMatchObject({
      ok: false,
      code: TalkErrors.unavailable,
    });

    // A terminal calling... the seat is called only by the console; a call the terminal ends is forwarded.
    const second = await client.command('PrivateCall', { uid: members[1]!.U_ID });
    expect(await members[1]!.terminal.request({ type: 'hangup', cid: second.cid })).toMatchObject({ type: 'ack' });
    await client.next((m) => m.event === 'callEnd' && m.cid === second.cid);

    // EndCall of a channel leaves it; Monitor [] leaves the monitored ones but keeps none current.
    expect(await client.command('EndCall', { cid })).toMatchObject({ ok: true, cid });
    expect(await client.command('Monitor', { cids: [] })).toMatchObject({ ok: true, cids: [] });
    expect(await client.command('ApplyMic')).toMatchObject({ ok: false, code: TalkAgentErrors.badRequest });
    expect(await client.command('GroupCall', { cid: 999_999 })).toMatchObject({
      ok: false,
      code: TalkErrors.notMember,
    });
    await client.command('LogOut');
    client.close();
  });

  it('VideoList, ApplyVideo and FreeVideo map onto the server video; kind-2 frames reach the console unchanged', async () => {
    // A terminal with video rights: VideoEnable TRUE for the enterprise, member of a video channel.
    const E_ID = t.demo.E_ID;
    await t.db
      .insertInto('sys_config')
      .values({ E_ID, Code: 'VideoEnable', Value: 'TRUE' })
      .onConflict((oc) => oc.columns(['E_ID', 'Code']).doUpdateSet({ Value: 'TRUE' }))
      .execute();
    const { cid, members } = await channelOf(t, E_ID, [0, 0]);
    await t.db.updateTable('channel').set({ VideoEnable: 1 }).where('CID', '=', cid).execute();
    const [camera, plain] = members as [Member, Member];
    const client = await AgentClient.connect(agent.talkPort, t.origin);
    await client.command('Login', await loginArgs(t));
    expect(await client.command('VideoList')).toMatchObject({ ok: true, videos: [] });

    expect(await camera.terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({ type: 'ack' });
    const online = await client.next((m) => m.event === 'videoOnline');
    expect(online.video).toMatchObject({ uid: camera.U_ID, name: expect.any(String), codecs: ['jpeg'] });
    const list = await client.command('VideoList');
    expect(list.videos).toEqual([
      { uid: camera.U_ID, name: (online.video as { name: string }).name, codecs: ['jpeg'] },
    ]);

    // Applying starts the terminal's stream; its frames reach the console as the server sent them.
    expect(await client.command('ApplyVideo', { uid: camera.U_ID })).toEqual({
      id: expect.any(Number),
      ok: true,
      uid: camera.U_ID,
    });
    await camera.terminal.next(isType('videoStart', { codec: 'jpeg' }));
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
    camera.terminal.socket.send(encodeVideoUp({ codec: VideoCodec.jpeg, timestamp: 90_000, payload: jpeg }));
    await waitFor(() => client.frames.length > 0);
    expect(decodeVideoDown(client.frames[0]!)).toEqual({
      uid: camera.U_ID,
      codec: VideoCodec.jpeg,
      timestamp: 90_000,
      payload: jpeg,
    });

    // Freed: the stream stops and no frame follows.
    expect(await client.command('FreeVideo', { uid: camera.U_ID })).toMatchObject({ ok: true, uid: camera.U_ID });
    await camera.terminal.next(isType('videoStop'));
    camera.terminal.socket.send(encodeVideoUp({ codec: VideoCodec.jpeg, timestamp: 90_040, payload: jpeg }));
    await sleep(200);
    expect(client.frames).toHaveLength(1);

    // The server's refusals pass through unchanged.
    expect(await client.command('ApplyVideo', { uid: plain.U_ID })).toMatchObject({
      ok: false,
      code: VideoErrors.noVideo,
    });
    expect(await client.command('ApplyVideo', { uid: 999_999 })).toMatchObject({
      ok: false,
      code: VideoErrors.noVideo,
    });

    camera.terminal.close();
    expect(await client.next((m) => m.event === 'videoOffline')).toMatchObject({ uid: camera.U_ID });
    for (const member of members) member.terminal.close();
    await client.command('LogOut');
    client.close();
  });
});

describe('losing the platform', () => {
  it('tells the console the seat ended (server_lost) and the server is disconnected', async () => {
    const other = await startServer();
    const lonely = await startTestAgent(other);
    try {
      const client = await AgentClient.connect(lonely.talkPort, other.origin);
      expect(await client.command('Login', await loginArgs(other))).toMatchObject({ ok: true });
      await other.close();
      await client.next((m) => m.event === 'loggedOut' && m.reason === 'server_lost');
      await client.next((m) => m.event === 'server' && m.state === 'disconnected');
      expect(await client.command('LoginInfo')).toMatchObject({ loggedIn: false, server: 'disconnected' });
      const args = await loginArgs(t);
      expect(await client.command('Login', { ...args, Proxy: other.origin })).toMatchObject({
        ok: false,
        code: TalkAgentErrors.serverUnreachable,
      });
      client.close();
    } finally {
      await lonely.close();
    }
  });
});

describe('stopping the agent', () => {
  it('logs the seat out of the platform without telling the consoles it was a logout', async () => {
    const stopping = await startTestAgent(t);
    const client = await AgentClient.connect(stopping.talkPort, t.origin);
    const seat = (await client.command('Login', await loginArgs(t))).seat as { dispatchNo: string };
    const closed = new Promise((resolve) => client.socket.once('close', resolve));
    await stopping.close();
    await closed;
    // `loggedOut logout` would tell the console not to log in again once the agent is back.
    expect(client.messages.filter((m) => m.event === 'loggedOut')).toEqual([]);
    // The seat is free on the platform: a new login of the same seat is not a takeover.
    const again = await startTestAgent(t);
    try {
      const next = await AgentClient.connect(again.talkPort, t.origin);
      expect(await next.command('Login', await loginArgs(t))).toMatchObject({ ok: true, seat });
      await next.command('LogOut');
      next.close();
    } finally {
      await again.close();
    }
  });
});

describe('monitor service', () => {
  it('tells its version and the health of the talk service', async () => {
    const client = await AgentClient.connect(agent.monitorPort, t.origin);
    expect(await client.command('Version')).toMatchObject({ ok: true, version: AGENT_VERSION, server: t.origin });
    expect(await client.command('Health')).toMatchObject({
      ok: true,
      talk: 'running',
      loggedIn: false,
      microphone: 'tone',
    });
    expect(await client.command('Login', {})).toMatchObject({ code: TalkAgentErrors.unknownCommand });
    client.close();
  });
});
