import { VideoCodec, VideoErrors } from '@intercom/contract';
import { decodeVideoDown, encodeVideoDown } from '@intercom/terminal-client';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountSession, authed, createEnterprise } from '../helper.js';
import { sleep } from '../hub/hubTestApp.js';
import { readSeries } from '../metricsScrape.js';
import { TALK_TERMINALS, createChannel, isType, waitFor } from '../talk/talkFixtures.js';
import { REDIS_URL, startScaleOut } from '../terminals/scaleOutApps.js';
import { TestTerminal, loggedIn, type TerminalTestApp } from '../terminals/terminalTestApp.js';
import { IDR, JPEG, P_FRAME, up } from './videoFixtures.js';
import { useTestApp } from '../useTestApp.js';

// Video across two instances on one Redis (issue 35, DESIGN.md 9): a seat on one instance watches a
// terminal connected to the other; the terminal is started once and stopped when the last viewer
// anywhere goes; an instance that dies without freeing loses its viewers when its lease runs out.
const s = useTestApp(() => startScaleOut(TALK_TERMINALS, { leaseMs: LEASE_MS }));
const LEASE_MS = 600;

beforeAll(async () => {
  for (const t of [s.a, s.b]) await enableVideo(t);
});

const timestamps = (seat: TestTerminal) => seat.frames.map((f) => decodeVideoDown(f)?.timestamp);
const count = (t: TestTerminal, type: string) => t.received.filter((m) => m.type === type).length;

/** intercom_video_remote_frames_total of an instance, as /metrics shows it. */
async function remoteFrames(t: TerminalTestApp, direction: 'sent' | 'received' | 'refused'): Promise<number> {
  const series = `intercom_video_remote_frames_total{direction="${direction}"}`;
  return (await readSeries(t.origin, [series]))[series] ?? 0;
}

async function enableVideo(t: TerminalTestApp): Promise<void> {
  if (t === s.b && s.shared) return;
  await t.db
    .insertInto('sys_config')
    .values({ E_ID: t.demo.E_ID, Code: 'VideoEnable', Value: 'TRUE' })
    .onConflict((oc) => oc.columns(['E_ID', 'Code']).doUpdateSet({ Value: 'TRUE' }))
    .execute();
}

/** A terminal of a video channel, logged in on `on` with `codecs` announced. */
async function camera(on: TerminalTestApp, codecs: string[]): Promise<{ U_ID: number; terminal: TestTerminal }> {
  const user = await s.user();
  // Separate SQLite databases: each instance gets a video channel of its own for the user.
  for (const t of s.shared ? [s.a] : [s.a, s.b]) {
    const cid = await createChannel(t, t.demo.E_ID, [{ U_ID: user.U_ID }]);
    await t.db.updateTable('channel').set({ VideoEnable: 1 }).where('CID', '=', cid).execute();
  }
  const terminal = await loggedIn(on, user.phone);
  expect(await terminal.request({ type: 'videoCaps', codecs })).toMatchObject({ type: 'ack', codecs });
  return { U_ID: user.U_ID, terminal };
}

/** A dispatcher seat on `on`, of an account of its own (one session per account, one seat per session). */
async function seat(on: TerminalTestApp, enterprise = { E_ID: s.a.demo.E_ID, code: s.a.demo.code }) {
  const { A_ID, token } = await accountSession(s.a, enterprise);
  const api = authed(s.a.app, token);
  if (!s.shared && on !== s.a) {
    // Separate SQLite databases: the instance redeeming the code gets the account and its session.
    if (enterprise.E_ID !== s.a.demo.E_ID) {
      const row = await s.a.db
        .selectFrom('enterprise')
        .selectAll()
        .where('E_ID', '=', enterprise.E_ID)
        .executeTakeFirst();
      if (row)
        await on.db
          .insertInto('enterprise')
          .values(row)
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
    const account = await s.a.db.selectFrom('account').selectAll().where('A_ID', '=', A_ID).executeTakeFirstOrThrow();
    await on.db.insertInto('account').values(account).execute();
    const sessions = await s.a.db.selectFrom('session').selectAll().where('A_ID', '=', A_ID).execute();
    await on.db.insertInto('session').values(sessions).execute();
  }
  const res = await api.post('/api/Talk/AuthCode', {});
  const { authCode } = res.json<{ BaseData: { authCode: string } }>().BaseData;
  const seatHere = await TestTerminal.connect(on);
  expect(await seatHere.request({ type: 'login', authCode })).toMatchObject({ type: 'ack' });
  return seatHere;
}

describe('seats of another enterprise', () => {
  it('on B hear nothing of a terminal on A, do not list it and may not watch it', async () => {
    const foreign = await seat(s.b, await createEnterprise(s.a.db));
    const onB = await seat(s.b);
    const { U_ID, terminal } = await camera(s.a, ['jpeg']);
    await onB.next(isType('videoOnline', { uid: U_ID }));
    expect(foreign.received.some((m) => m.type === 'videoOnline')).toBe(false);
    expect(await foreign.request({ type: 'videoList' })).toMatchObject({ type: 'ack', videos: [] });
    expect(await foreign.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ code: VideoErrors.noVideo });
    await sleep(LEASE_MS / 2);
    expect(count(terminal, 'videoStart')).toBe(0);
    for (const t of [foreign, onB, terminal]) t.close();
  });
});

describe('a seat on B watches a terminal on A', () => {
  it('hears it online, lists it, gets its frames from the first key frame, and hears it go', async () => {
    const onB = await seat(s.b);
    const { U_ID, terminal } = await camera(s.a, ['h264']);
    expect(await onB.next(isType('videoOnline', { uid: U_ID }))).toMatchObject({ codecs: ['h264'] });
    const listed = await onB.request({ type: 'videoList' });
    expect(listed).toMatchObject({ type: 'ack' });
    expect(listed.videos).toContainEqual({ uid: U_ID, name: expect.any(String) as string, codecs: ['h264'] });

    expect(await onB.request({ type: 'videoApply', uid: U_ID })).toMatchObject({
      type: 'ack',
      uid: U_ID,
      codec: 'h264',
    });
    await terminal.next(isType('videoStart', { codec: 'h264' }));
    const [sent, received] = await Promise.all([remoteFrames(s.a, 'sent'), remoteFrames(s.b, 'received')]);
    terminal.socket.send(up(VideoCodec.h264, 1, P_FRAME));
    terminal.socket.send(up(VideoCodec.h264, 2, IDR));
    terminal.socket.send(up(VideoCodec.h264, 3, P_FRAME));
    await waitFor(() => onB.frames.length === 2);
    expect(timestamps(onB)).toEqual([2, 3]);
    const frame = decodeVideoDown(onB.frames[0] as Buffer);
    expect(frame).toMatchObject({ uid: U_ID, codec: VideoCodec.h264 });
    expect(Buffer.from(frame?.payload ?? [])).toEqual(IDR);
    // The P frame before the key frame never crossed: A starts a new remote viewer at a key frame too.
    expect((await remoteFrames(s.a, 'sent')) - sent).toBe(2);
    expect((await remoteFrames(s.b, 'received')) - received).toBe(2);

    terminal.close();
    await onB.next(isType('videoOffline', { uid: U_ID }));
    expect((await onB.request({ type: 'videoList' })).videos).not.toContainEqual(
      expect.objectContaining({ uid: U_ID }),
    );
    expect(await onB.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ code: VideoErrors.noVideo });
    onB.close();
  });
});

describe('viewers on both instances', () => {
  it('start the terminal once and stop it when the last viewer anywhere leaves', async () => {
    const [onA, onB1, onB2] = [await seat(s.a), await seat(s.b), await seat(s.b)];
    const { U_ID, terminal } = await camera(s.a, ['jpeg']);
    await onB2.next(isType('videoOnline', { uid: U_ID }));
    const sent = () => s.a.app.talk.video.counters.remoteSent;

    expect(await onA.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ type: 'ack', codec: 'jpeg' });
    await terminal.next(isType('videoStart'));
    // Only a viewer here: nothing crosses the backplane.
    const before = sent();
    terminal.socket.send(up(VideoCodec.jpeg, 10, JPEG));
    await waitFor(() => onA.frames.length === 1);
    expect(sent()).toBe(before);

    for (const b of [onB1, onB2]) {
      expect(await b.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ type: 'ack', codec: 'jpeg' });
    }
    // B's ack comes before A has heard B's `want` (a busy CI saw the frame sent before it).
    await waitFor(() => s.a.app.talk.video.remoteViewers(U_ID) === 1);
    terminal.socket.send(up(VideoCodec.jpeg, 11, JPEG));
    await waitFor(() => onA.frames.length === 2 && onB1.frames.length === 1 && onB2.frames.length === 1);
    // Two seats on B are one viewer for A: the frame crossed once.
    expect(sent()).toBe(before + 1);
    expect(count(terminal, 'videoStart')).toBe(1);

    // A's seat frees, one of B's disconnects: B's other seat still watches.
    expect(await onA.request({ type: 'videoFree', uid: U_ID })).toMatchObject({ type: 'ack', uid: U_ID });
    onB1.close();
    await sleep(LEASE_MS);
    terminal.socket.send(up(VideoCodec.jpeg, 12, JPEG));
    await waitFor(() => onB2.frames.length === 2);
    expect(timestamps(onB2)).toEqual([11, 12]);
    expect(onA.frames).toHaveLength(2);
    expect(count(terminal, 'videoStop')).toBe(0);

    // The last viewer anywhere frees: the terminal stops; a new viewer on B starts it again, once.
    expect(await onB2.request({ type: 'videoFree', uid: U_ID })).toMatchObject({ type: 'ack' });
    await terminal.next(isType('videoStop'));
    expect(await onB2.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ type: 'ack' });
    await waitFor(() => count(terminal, 'videoStart') === 2);
    onB2.close();
    await waitFor(() => count(terminal, 'videoStop') === 2);
    await sleep(LEASE_MS);
    expect(count(terminal, 'videoStart')).toBe(2);
    for (const t of [onA, terminal]) t.close();
  });
});

describe('what other instances say', () => {
  it('refuses bad signals and frames on the backplane and changes nothing', async () => {
    const onB = await seat(s.b);
    const { U_ID, terminal } = await camera(s.a, ['jpeg']);
    await onB.next(isType('videoOnline', { uid: U_ID }));
    const redis = new Redis(REDIS_URL);
    const video = s.b.app.talk.video;
    const origin = video.instances.shared?.origin ?? 0;
    const refused = video.counters.remoteRefused;
    // Well formed, but from an instance that does not hold the terminal: not believed.
    await redis.publish(`${s.prefix}:video`, JSON.stringify({ from: 7, signal: { kind: 'offline', uid: U_ID } }));
    const signals = [
      'not json',
      JSON.stringify({ from: 0, signal: { kind: 'hello' } }),
      JSON.stringify({ from: 7, signal: { kind: 'reboot' } }),
      JSON.stringify({ from: 7, signal: { kind: 'want', uid: 'x' } }),
      JSON.stringify({ from: 7, signal: { kind: 'offline', uid: -U_ID } }),
      JSON.stringify({ from: 7, signal: { kind: 'online', source: { uid: 9, E_ID: 1, name: 'x', codecs: ['vp9'] } } }),
      JSON.stringify({ from: 7, signal: { kind: 'alive', sources: [U_ID, 0], watching: [] } }),
    ];
    for (const message of signals) await redis.publish(`${s.prefix}:video`, message);
    const frameChannel = `${s.prefix}:video:to:${origin}`;
    const header = Buffer.alloc(4);
    header.writeUInt32BE(7);
    await redis.publish(frameChannel, Buffer.from([1, 2]));
    await redis.publish(frameChannel, Buffer.concat([header, Buffer.from([9, 9, 9])]));
    const forged = encodeVideoDown({ uid: U_ID, codec: VideoCodec.jpeg, timestamp: 1, payload: JPEG });
    await redis.publish(frameChannel, Buffer.concat([header, forged]));
    await waitFor(() => video.counters.remoteRefused === refused + signals.length + 3);
    redis.disconnect();
    expect(await remoteFrames(s.b, 'refused')).toBe(refused + signals.length + 3);

    expect((await onB.request({ type: 'videoList' })).videos).toContainEqual(expect.objectContaining({ uid: U_ID }));
    expect(onB.received.filter(isType('videoOffline'))).toHaveLength(0);
    expect(await onB.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ type: 'ack' });
    // A terminal streams once told to: before that, A may not know of B's viewer yet (a busy CI saw it).
    await terminal.next(isType('videoStart'));
    terminal.socket.send(up(VideoCodec.jpeg, 5, JPEG));
    await waitFor(() => onB.frames.length === 1);
    for (const t of [onB, terminal]) t.close();
  });
});

describe('an instance started later', () => {
  it('lists the terminals already offering video elsewhere, watches them, and frees them when it stops', async () => {
    const { U_ID, terminal } = await camera(s.a, ['jpeg']);
    const c = await s.another();
    let closed = false;
    try {
      const onC = await seat(c);
      // C asked the others for their video when it joined: no videoOnline came, the list has it.
      const deadline = Date.now() + 5_000;
      let listed = await onC.request({ type: 'videoList' });
      while (!JSON.stringify(listed.videos).includes(`"uid":${U_ID},`) && Date.now() < deadline) {
        await sleep(50);
        listed = await onC.request({ type: 'videoList' });
      }
      expect(listed.videos).toContainEqual(expect.objectContaining({ uid: U_ID, codecs: ['jpeg'] }));
      expect(await onC.request({ type: 'videoApply', uid: U_ID })).toMatchObject({ type: 'ack', codec: 'jpeg' });
      await terminal.next(isType('videoStart'));
      terminal.socket.send(up(VideoCodec.jpeg, 7, JPEG));
      await waitFor(() => onC.frames.length === 1);
      // C stops while its seat watches: it frees the terminal on its way out, the lease need not run out.
      const listener = new Redis(REDIS_URL);
      const heard: unknown[] = [];
      listener.on('message', (_channel: string, message: string) => heard.push(JSON.parse(message)));
      await listener.subscribe(`${s.prefix}:video`);
      const origin = c.app.talk.video.instances.shared?.origin;
      await c.close();
      closed = true;
      const none = JSON.stringify({ from: origin, signal: { kind: 'none', uid: U_ID } });
      await waitFor(() => heard.some((m) => JSON.stringify(m) === none));
      await terminal.next(isType('videoStop'));
      await listener.quit();
      onC.close();
    } finally {
      if (!closed) await c.close();
      terminal.close();
    }
  });
});

// Last: instance B drops its Redis connections as if it had crashed.
describe('an instance that dies', () => {
  it('stops the terminals its seats watched once its lease runs out, and its terminals go offline', async () => {
    const [onA, onB] = [await seat(s.a), await seat(s.b)];
    const [camA, camB] = [await camera(s.a, ['jpeg']), await camera(s.b, ['jpeg'])];
    await onB.next(isType('videoOnline', { uid: camA.U_ID }));
    await onA.next(isType('videoOnline', { uid: camB.U_ID }));
    expect(await onB.request({ type: 'videoApply', uid: camA.U_ID })).toMatchObject({ type: 'ack' });
    expect(await onA.request({ type: 'videoApply', uid: camB.U_ID })).toMatchObject({ type: 'ack' });
    await camA.terminal.next(isType('videoStart'));
    await camB.terminal.next(isType('videoStart'));
    // Longer than the lease: both instances renew it while alive.
    await sleep(2 * LEASE_MS);
    expect(count(camA.terminal, 'videoStop')).toBe(0);
    expect(onA.received.filter(isType('videoOffline'))).toHaveLength(0);

    const died = Date.now();
    s.b.app.talk.video.instances.shared?.disconnect();
    await camA.terminal.next(isType('videoStop'), 5 * LEASE_MS);
    await onA.next(isType('videoOffline', { uid: camB.U_ID }), 5 * LEASE_MS);
    expect(Date.now() - died).toBeLessThan(4 * LEASE_MS);
    expect((await onA.request({ type: 'videoList' })).videos).not.toContainEqual(
      expect.objectContaining({ uid: camB.U_ID }),
    );
    for (const t of [onA, onB, camA.terminal, camB.terminal]) t.close();
  });
});
