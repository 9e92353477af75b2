import { TalkErrors, TerminalErrors, VideoCodec, VideoErrors, type PushMsg } from '@intercom/contract';
import { decodeVideoDown, encodeVideoUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { accountSession } from '../helper.js';
import { hubClient, record, tenant, until } from '../hub/hubTestApp.js';
import { isType, seatOf, useTalkApp, waitFor } from '../talk/talkFixtures.js';
import { IDR, JPEG, P_FRAME, channelMember, setVideoEnable, up } from './videoFixtures.js';

// Video on /terminal (issue 14): rights, apply/free, start/stop, relay, the list for seats and consoles.
// The app's default talk timings: these tests hold no floor.
const t = useTalkApp({});

describe('video rights', () => {
  it('refuses videoCaps, frames and apply unless VideoEnable is TRUE and the user is in a video channel', async () => {
    const { E_ID, token } = await tenant(t);
    const plain = await channelMember(t, E_ID, false);
    const inVideo = await channelMember(t, E_ID, true);
    // VideoEnable defaults to FALSE: even a video channel member has no video.
    expect(await inVideo.terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({
      type: 'error',
      code: VideoErrors.notVideoMember,
    });
    await setVideoEnable(t, E_ID, 'TRUE');
    expect(await plain.terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({
      code: VideoErrors.notVideoMember,
    });
    // Frames without rights: refused, never relayed.
    plain.terminal.socket.send(up(VideoCodec.jpeg, 1, JPEG));
    await plain.terminal.next(isType('error', { seq: null, code: VideoErrors.notVideoMember }));
    const seat = await seatOf(t, token);
    expect(await seat.request({ type: 'videoApply', uid: plain.U_ID })).toMatchObject({
      type: 'error',
      code: VideoErrors.notVideoMember,
    });
    expect(await seat.request({ type: 'videoApply', uid: inVideo.U_ID })).toMatchObject({ code: VideoErrors.noVideo });
    expect(await inVideo.terminal.request({ type: 'videoCaps', codecs: ['h264', 'jpeg'] })).toMatchObject({
      type: 'ack',
      codecs: ['h264', 'jpeg'],
    });
    expect(await seat.request({ type: 'videoApply', uid: inVideo.U_ID })).toMatchObject({
      type: 'ack',
      codec: 'h264',
    });
  });

  it('answers bad video messages with clear errors', async () => {
    const { E_ID, token } = await tenant(t);
    await setVideoEnable(t, E_ID, 'TRUE');
    const source = await channelMember(t, E_ID, true);
    const bad = [
      { type: 'videoCaps', codecs: ['vp9'] },
      { type: 'videoCaps', codecs: ['jpeg', 'jpeg'] },
      { type: 'videoCaps' },
      { type: 'videoApply', uid: 0 },
      { type: 'videoApply', uid: 'x' },
      { type: 'videoFree' },
    ];
    for (const message of bad) {
      expect(await source.terminal.request(message)).toMatchObject({ type: 'error', code: TerminalErrors.invalid });
    }
    // Seat-only messages from a terminal, terminal-only ones from a seat.
    expect(await source.terminal.request({ type: 'videoApply', uid: source.U_ID })).toMatchObject({
      code: TerminalErrors.notSupported,
    });
    const seat = await seatOf(t, token);
    expect(await seat.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({
      code: TerminalErrors.notSupported,
    });
    // Bad frames: unknown codec, a codec not announced, a header alone, too large.
    expect(await source.terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({ type: 'ack' });
    const before = t.app.talk.video.counters.badFrames;
    source.terminal.socket.send(up(9, 1, JPEG));
    source.terminal.socket.send(up(VideoCodec.h264, 1, IDR));
    source.terminal.socket.send(encodeVideoUp({ codec: VideoCodec.jpeg, timestamp: 1, payload: new Uint8Array() }));
    await waitFor(() => t.app.talk.video.counters.badFrames === before + 3);
    await source.terminal.next(isType('error', { code: TalkErrors.badFrame }));
    source.terminal.socket.send(Buffer.alloc(600 * 1024, 2));
    await source.terminal.next(isType('error', { code: TerminalErrors.tooLarge }));
    // The connection survives all of it.
    expect(await source.terminal.request({ type: 'heartbeat' })).toMatchObject({ type: 'ack' });
  });
});

describe('apply, relay, free', () => {
  it('starts the terminal on the first viewer, relays only to viewers, stops on the last free', async () => {
    const mine = await tenant(t);
    const { E_ID, token } = mine;
    await setVideoEnable(t, E_ID, 'TRUE');
    const source = await channelMember(t, E_ID, true);
    expect(await source.terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({ type: 'ack' });
    // Three dispatchers: a console session carries one seat.
    const others = [await accountSession(t, mine), await accountSession(t, mine)];
    const [a, b, idle] = [await seatOf(t, token), await seatOf(t, others[0]!.token), await seatOf(t, others[1]!.token)];

    // Nobody watches: frames go nowhere and the terminal was never asked to start.
    const unwatched = t.app.talk.video.counters.unwatched;
    source.terminal.socket.send(up(VideoCodec.jpeg, 1, JPEG));
    await waitFor(() => t.app.talk.video.counters.unwatched === unwatched + 1);
    expect(source.terminal.received.some((m) => m.type === 'videoStart')).toBe(false);

    expect(await a.request({ type: 'videoApply', uid: source.U_ID })).toMatchObject({ type: 'ack', codec: 'jpeg' });
    await source.terminal.next(isType('videoStart', { codec: 'jpeg' }));
    expect(await b.request({ type: 'videoApply', uid: source.U_ID })).toMatchObject({ type: 'ack' });
    expect(source.terminal.received.filter((m) => m.type === 'videoStart')).toHaveLength(1);

    source.terminal.socket.send(up(VideoCodec.jpeg, 1234, JPEG));
    await waitFor(() => a.frames.length === 1 && b.frames.length === 1);
    const frame = decodeVideoDown(a.frames[0] as Buffer);
    expect(frame).toMatchObject({ uid: source.U_ID, codec: VideoCodec.jpeg, timestamp: 1234 });
    expect(Buffer.from(frame?.payload ?? [])).toEqual(JPEG);

    expect(await a.request({ type: 'videoFree', uid: source.U_ID })).toMatchObject({ type: 'ack' });
    source.terminal.socket.send(up(VideoCodec.jpeg, 1300, JPEG));
    await waitFor(() => b.frames.length === 2);
    expect(a.frames).toHaveLength(1);
    expect(source.terminal.received.some((m) => m.type === 'videoStop')).toBe(false);
    // The last viewer goes (by closing its socket): the terminal is told to stop.
    b.close();
    await source.terminal.next(isType('videoStop'));
    expect(idle.frames).toHaveLength(0);
  });

  it('starts a new H.264 viewer at an IDR and never sends it the P frames before', async () => {
    const { E_ID, token } = await tenant(t);
    await setVideoEnable(t, E_ID, 'TRUE');
    const source = await channelMember(t, E_ID, true);
    await source.terminal.request({ type: 'videoCaps', codecs: ['h264'] });
    const seat = await seatOf(t, token);
    await seat.request({ type: 'videoApply', uid: source.U_ID });
    source.terminal.socket.send(up(VideoCodec.h264, 1, P_FRAME));
    source.terminal.socket.send(up(VideoCodec.h264, 2, IDR));
    source.terminal.socket.send(up(VideoCodec.h264, 3, P_FRAME));
    await waitFor(() => seat.frames.length === 2);
    expect(seat.frames.map((f) => decodeVideoDown(f)?.timestamp)).toEqual([2, 3]);
  });
});

describe('the video list', () => {
  it('tells seats and consoles of the scope when video comes and goes, and nothing across tenants', async () => {
    const mine = await tenant(t);
    const other = await tenant(t);
    await setVideoEnable(t, mine.E_ID, 'TRUE');
    await setVideoEnable(t, other.E_ID, 'TRUE');
    const seat = await seatOf(t, mine.token);
    const foreignSeat = await seatOf(t, other.token);
    const client = hubClient(t, { token: mine.token });
    const pushes = record<PushMsg>(client, 'pushMsg');
    await client.start();
    await client.invoke('FuncGPS');
    await until(() => pushes.some((p) => p.type === 'Videos'), 'Videos snapshot');
    expect(pushes.find((p) => p.type === 'Videos')?.data).toEqual([]);

    const source = await channelMember(t, mine.E_ID, true);
    await source.terminal.request({ type: 'videoCaps', codecs: ['jpeg'] });
    const name = `T${source.phone}`;
    await seat.next(isType('videoOnline', { uid: source.U_ID, name }));
    expect(await seat.request({ type: 'videoList' })).toMatchObject({
      type: 'ack',
      videos: [{ uid: source.U_ID, name, codecs: ['jpeg'] }],
    });
    await until(
      () => pushes.some((p) => p.type === 'Video' && p.data.some((v) => v.uid === source.U_ID && v.online)),
      'Video online delta',
    );
    // Another tenant's seat neither hears of it, nor lists it, nor may watch it.
    expect(await foreignSeat.request({ type: 'videoList' })).toMatchObject({ type: 'ack', videos: [] });
    expect(await foreignSeat.request({ type: 'videoApply', uid: source.U_ID })).toMatchObject({
      code: VideoErrors.noVideo,
    });
    expect(foreignSeat.received.some((m) => m.type === 'videoOnline')).toBe(false);

    // The terminal disconnects: the list updates everywhere.
    source.terminal.close();
    await seat.next(isType('videoOffline', { uid: source.U_ID }));
    await until(
      () => pushes.some((p) => p.type === 'Video' && p.data.some((v) => v.uid === source.U_ID && !v.online)),
      'Video offline delta',
    );
    expect(await seat.request({ type: 'videoList' })).toMatchObject({ videos: [] });
    await client.stop();
  });
});
