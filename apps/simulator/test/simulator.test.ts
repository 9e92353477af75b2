import { VideoCodec, isVideoKeyFrame } from '@intercom/contract';
import { decodeVideoDown } from '@intercom/terminal-client';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { runsOf } from '../src/adminApi.js';
import { SimDevice } from '../src/device.js';
import { ffmpegH264Available } from '../src/ffmpegH264.js';
import { startFleet } from '../src/fleet.js';
import { accessUnits, h264ClipUnits } from '../src/h264Clip.js';
import { distanceMetres, seededRandom } from '../src/movement.js';
import { parseOptions, phoneOf } from '../src/options.js';
import { until } from '../../server/test/hub/hubTestApp.js';
import { FAST_TERMINALS, startTerminalApp } from '../../server/test/terminals/terminalTestApp.js';
import { useTestApp } from '../../server/test/useTestApp.js';
import { fleetOptions } from './fleetFixtures.js';
import { seatOf } from './seatOf.js';

describe('options', () => {
  it('has defaults and reads every flag', () => {
    expect(parseOptions([], {})).toMatchObject({
      url: 'http://localhost:8080',
      terminals: 10,
      enterprise: 'DEMO',
      osmand: false,
      interval: undefined,
    });
    const options = parseOptions(
      [
        '--terminals',
        '3',
        '--url',
        'http://127.0.0.1:9000/',
        '--enterprise',
        'ACME',
        '--interval',
        '2',
        '--osmand',
        '--centre',
        '48.85,2.35',
        '--password',
        'pw',
      ],
      {},
    );
    expect(options).toMatchObject({
      url: 'http://127.0.0.1:9000',
      terminals: 3,
      enterprise: 'ACME',
      interval: 2,
      osmand: true,
      centre: { lat: 48.85, lon: 2.35 },
      password: 'pw',
    });
    expect(parseOptions([], { ADMIN_PASSWORD: 'from-env' }).password).toBe('from-env');
    // Users made beside the fleet for a person's phone (the demo's field app user, issue 49).
    expect(parseOptions([], {}).spareUsers).toBe(0);
    expect(parseOptions(['--spare-users', '1'], {}).spareUsers).toBe(1);
    expect(() => parseOptions(['--spare-users', '101'], {})).toThrow();
    expect(parseOptions([], {})).toMatchObject({ talkEvery: 60, talkGroup: 10, record: false });
    expect(parseOptions(['--talk-every', '0', '--talk-group', '5', '--record'], {})).toMatchObject({
      talkEvery: 0,
      talkGroup: 5,
      record: true,
    });
  });

  it.each([
    [['--terminals', 'many']],
    [['--centre', '95,10']],
    [['--phone-start', '12ab']],
    [['--url', 'ftp://x']],
    [['--frobnicate']],
    [['--video', '--video-size', '100x100']],
    [['--video', '--video-fps', '0']],
    [['--video', '--video-codec', 'vp8']],
    [['--video', '--video-codec', 'h264', '--video-encoder', 'x264']],
    [['--video', '--video-terminals', '0']],
    [['--talk-every', '-1']],
    [['--talk-group', '0']],
    [['--talk-every', 'often']],
  ])('refuses %j', (argv) => {
    expect(() => parseOptions(argv, {})).toThrow();
  });

  it('takes the H.264 source and the number of cameras', () => {
    const clip = parseOptions(['--video', '--video-codec', 'h264', '--video-encoder', 'clip'], {});
    expect(clip.video).toMatchObject({ codec: 'h264', h264: 'clip' });
    expect(clip.videoTerminals).toBeUndefined();
    // Without --video-encoder: live through ffmpeg where it is installed, else the clip.
    expect(parseOptions(['--video', '--video-codec', 'h264'], {}).video?.h264).toBe(
      ffmpegH264Available() ? 'ffmpeg' : 'clip',
    );
    const jpegCameras = parseOptions(['--video', '--video-terminals', '2'], {});
    expect(jpegCameras.videoTerminals).toBe(2);
    expect(jpegCameras.video?.h264).toBeUndefined();
  });

  it('counts phones up from the start, keeping leading zeros', () => {
    expect([0, 1, 10].map((i) => phoneOf('0099', i))).toEqual(['0099', '0100', '0109']);
    expect(runsOf([0, 1, 2, 5, 6, 9], 2)).toEqual([
      [0, 2],
      [2, 1],
      [5, 2],
      [9, 1],
    ]);
  });
});

describe('movement', () => {
  it('stays inside its area, moves at its speed and drains the battery', () => {
    const centre = { lat: 22.54, lon: 114.05 };
    const device = new SimDevice(centre, 2, seededRandom(7), 0);
    const start = device.battery;
    let previous = device.path.position;
    for (let i = 0; i < 600; i++) {
      const reading = device.step(5);
      expect(distanceMetres(centre, reading.position)).toBeLessThanOrEqual(2001);
      expect(distanceMetres(previous, reading.position)).toBeLessThanOrEqual((reading.speedKmh / 3.6) * 5 + 1);
      expect(reading.battery).toBeGreaterThanOrEqual(0);
      expect(reading.signal).toBeGreaterThanOrEqual(5);
      previous = reading.position;
    }
    expect(device.battery).not.toBe(start);
  });

  it('stops now and then at a waypoint, and never with --no-stops', () => {
    const centre = { lat: 22.54, lon: 114.05 };
    /** Reports (1 s apart) at which the device stood still, of 3,600. */
    const stillReports = (stops: boolean) => {
      const device = new SimDevice(centre, 0.2, seededRandom(11), 0, stops);
      let still = 0;
      for (let i = 0; i < 3600; i++) {
        const before = device.path.position;
        if (device.step(1).position === before) still += 1;
      }
      return still;
    };
    expect(stillReports(true)).toBeGreaterThan(60);
    expect(stillReports(false)).toBe(0);
    expect(parseOptions([], {}).stops).toBe(true);
    expect(parseOptions(['--no-stops'], {}).stops).toBe(false);
    expect(() => parseOptions(['--no-stops=1'], {})).toThrow();
  });
});

describe('the H.264 clip', () => {
  it('cuts into 40 access units, an IDR with its parameter sets every tenth', () => {
    const units = h264ClipUnits();
    expect(units).toHaveLength(40);
    const keys = units.map((unit, i) => (isVideoKeyFrame(VideoCodec.h264, unit) ? i : -1)).filter((i) => i >= 0);
    expect(keys).toEqual([0, 10, 20, 30]);
    // Each unit starts with its delimiter; a key unit carries the SPS (NAL 7) for the decoder.
    expect([...(units[0] as Uint8Array).subarray(0, 5)]).toEqual([0, 0, 0, 1, 9]);
    expect(accessUnits(Uint8Array.from([0, 0, 1, 0x65, 1]))).toHaveLength(1);
    expect(parseOptions(['--video', '--video-codec', 'h264'], {}).video?.codec).toBe('h264');
  });
});

describe('fleet against a server', () => {
  const t = useTestApp(() => startTerminalApp({ ...FAST_TERMINALS, osmandPerMinute: 10_000 }));

  it('creates its users through the users API, logs them in over /terminal and reports', async () => {
    const options = fleetOptions(t, {
      terminals: 3,
      phoneStart: '19900000000',
    });
    const fleet = await startFleet(options, () => undefined);
    await until(() => fleet.stats.loggedIn === 3 && fleet.stats.acked >= 6, 'three terminals reporting', 10_000);
    await fleet.stop();
    await t.terminals.service.writer.flush();
    const users = await t.db
      .selectFrom('terminal_user')
      .select(['UserID', 'UserName'])
      .where('MobilePhone', 'like', '1990000000%')
      .execute();
    expect(users.map((u) => u.UserName).sort()).toEqual(['Sim19900000000', 'Sim19900000001', 'Sim19900000002']);
    const stored = await t.db
      .selectFrom('location_history')
      .select('U_ID')
      .where(
        'U_ID',
        'in',
        users.map((u) => u.UserID),
      )
      .execute();
    expect(new Set(stored.map((r) => r.U_ID)).size).toBe(3);
    expect(fleet.stats.errors).toBe(0);

    // A second run reuses the same users.
    const again = await startFleet(options, () => undefined);
    await until(() => again.stats.loggedIn === 3, 'logins again', 10_000);
    await again.stop();
    expect(
      await t.db.selectFrom('terminal_user').select('UserID').where('MobilePhone', 'like', '1990000000%').execute(),
    ).toHaveLength(3);
  });

  it('talks in its channels with real Opus speech and fills the recording history with --record', async () => {
    const options = fleetOptions(t, {
      terminals: 4,
      interval: 5,
      phoneStart: '19700000000',
      talkEvery: 0.3,
      talkGroup: 2,
      record: true,
    });
    const fleet = await startFleet(options, () => undefined);
    await until(() => fleet.stats.bursts >= 2 && fleet.stats.framesHeard >= 50, 'bursts heard', 20_000);
    await fleet.stop();
    const channels = await t.db
      .selectFrom('channel')
      .select(['CID', 'CName', 'Record'])
      .where('CName', 'in', ['Sim 19700000000', 'Sim 19700000002'])
      .execute();
    expect(channels.map((c) => c.Record)).toEqual([1, 1]);
    const members = await t.db
      .selectFrom('channel_member')
      .select('CID')
      .where(
        'CID',
        'in',
        channels.map((c) => c.CID),
      )
      .execute();
    expect(members).toHaveLength(4);
    // The last burst's row is written when its recording closes.
    let recordings = 0;
    for (let i = 0; i < 100 && recordings === 0; i++) {
      recordings = (await t.db.selectFrom('recording').select('R_ID').where('RType', '=', 'group').execute()).length;
      if (recordings === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recordings).toBeGreaterThanOrEqual(1);
    expect(fleet.stats.errors).toBe(0);
  });

  it('reports over OsmAnd with --osmand', async () => {
    const options = fleetOptions(t, {
      terminals: 2,
      osmand: true,
      phoneStart: '19800000000',
    });
    const fleet = await startFleet(options, () => undefined);
    await until(() => fleet.stats.acked >= 4, 'OsmAnd reports', 10_000);
    await fleet.stop();
    expect(fleet.stats.errors).toBe(0);
  });

  it('publishes a JPEG test stream with --video, only between videoStart and videoStop', async () => {
    const options = fleetOptions(t, {
      terminals: 1,
      interval: 5,
      phoneStart: '19700000000',
      video: { codec: 'jpeg' as const, fps: 10, width: 160, height: 120 },
    });
    const fleet = await startFleet(options, () => undefined);
    await until(() => fleet.stats.loggedIn === 1, 'login', 10_000);
    const user = await t.db
      .selectFrom('terminal_user')
      .select('UserID')
      .where('MobilePhone', '=', '19700000000')
      .executeTakeFirstOrThrow();
    const video = t.app.talk.video;
    const seat = await seatOf(t);
    const listed = async () => {
      const reply = await seat.request({ type: 'videoList' });
      return (reply.videos as { uid: number }[]).some((v) => v.uid === user.UserID);
    };
    for (let tries = 0; !(await listed()); tries += 1) {
      if (tries > 50) throw new Error(`not in the video list; fleet errors ${JSON.stringify(fleet.stats)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Nobody watched yet: the terminal sent nothing.
    expect(video.counters.received).toBe(0);
    expect(await seat.request({ type: 'videoApply', uid: user.UserID })).toMatchObject({ type: 'ack', codec: 'jpeg' });
    await until(() => seat.frames.length >= 3, 'three frames', 10_000);
    const frame = decodeVideoDown(seat.frames[0] as Buffer);
    expect(frame?.uid).toBe(user.UserID);
    const picture = jpeg.decode(frame?.payload ?? new Uint8Array());
    expect([picture.width, picture.height]).toEqual([160, 120]);
    // Captured a moment ago: the timestamp is the capture time (epoch ms mod 2^32).
    expect((Date.now() % 2 ** 32) - (frame?.timestamp ?? 0)).toBeLessThan(5_000);
    expect(await seat.request({ type: 'videoFree', uid: user.UserID })).toMatchObject({ type: 'ack' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = video.counters.received;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(video.counters.received).toBe(after);
    seat.close();
    await fleet.stop();
    expect(fleet.stats.errors).toBe(0);
  });

  it.skipIf(!ffmpegH264Available())(
    'with --video-terminals 1 only the first terminal is a camera, and it sends live H.264 from ffmpeg',
    async () => {
      const options = fleetOptions(t, {
        terminals: 2,
        interval: 5,
        phoneStart: '19710000000',
        video: { codec: 'h264' as const, h264: 'ffmpeg' as const, fps: 10, width: 160, height: 120 },
        videoTerminals: 1,
      });
      const fleet = await startFleet(options, () => undefined);
      await until(() => fleet.stats.loggedIn === 2, 'logins', 10_000);
      const users = await t.db
        .selectFrom('terminal_user')
        .select(['UserID', 'MobilePhone'])
        .where('MobilePhone', 'in', ['19710000000', '19710000001'])
        .orderBy('MobilePhone')
        .execute();
      const [camera, other] = users.map((u) => u.UserID) as [number, number];
      const seat = await seatOf(t);
      const listed = async () => {
        const reply = await seat.request({ type: 'videoList' });
        return (reply.videos as { uid: number; codecs: string[] }[]).filter((v) => v.uid === camera || v.uid === other);
      };
      let videos = await listed();
      for (let tries = 0; videos.length === 0; tries += 1) {
        if (tries > 50) throw new Error(`not in the video list; fleet errors ${JSON.stringify(fleet.stats)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        videos = await listed();
      }
      expect(videos).toEqual([expect.objectContaining({ uid: camera, codecs: ['h264'] })]);
      const applied = await seat.request({ type: 'videoApply', uid: camera });
      expect(applied).toMatchObject({ type: 'ack', codec: 'h264' });
      await until(() => seat.frames.length >= 12, 'twelve pictures', 20_000);
      const frames = seat.frames.map((f) => decodeVideoDown(f));
      // The viewer starts at a key frame (SPS first); a key frame again within a second (10 pictures).
      expect(isVideoKeyFrame(VideoCodec.h264, frames[0]?.payload ?? new Uint8Array())).toBe(true);
      expect([...(frames[0]?.payload ?? new Uint8Array()).subarray(0, 5)]).toEqual([0, 0, 0, 1, 0x67]);
      const keys = frames.filter((f) => f && isVideoKeyFrame(VideoCodec.h264, f.payload)).length;
      expect(keys).toBeGreaterThanOrEqual(2);
      expect((Date.now() % 2 ** 32) - (frames.at(-1)?.timestamp ?? 0)).toBeLessThan(5_000);
      expect(await seat.request({ type: 'videoFree', uid: camera })).toMatchObject({ type: 'ack' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = t.app.talk.video.counters.received;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(t.app.talk.video.counters.received).toBe(after);
      seat.close();
      await fleet.stop();
      expect(fleet.stats.errors).toBe(0);
    },
    40_000,
  );
});
