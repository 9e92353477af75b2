import { VideoCodec } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { tenant } from '../hub/hubTestApp.js';
import { readSeries, seriesDelta } from '../metricsScrape.js';
import { seatOf, useTalkApp, waitFor } from '../talk/talkFixtures.js';
import { IDR, P_FRAME, channelMember, setVideoEnable, up } from './videoFixtures.js';

// intercom_video_* on /metrics (issue 35): a real stream to real seats moves them.
// The app's default talk timings: these tests hold no floor.
const t = useTalkApp({});

const read = (series: readonly string[]) => readSeries(t.origin, series);

/** A terminal of a new enterprise with video rights, announcing h264 and jpeg, and a seat of that enterprise. */
async function videoSource() {
  const { E_ID, token } = await tenant(t);
  await setVideoEnable(t, E_ID, 'TRUE');
  const { U_ID, terminal } = await channelMember(t, E_ID, true);
  return { uid: U_ID, terminal, seat: () => seatOf(t, token) };
}

describe('video metrics', () => {
  it('show sources, streams and viewers; count frames and bytes relayed, refused, and skipped to a key frame', async () => {
    const series = [
      'intercom_video_sources',
      'intercom_video_streams',
      'intercom_video_viewers',
      'intercom_video_frames_relayed_total',
      'intercom_video_bytes_relayed_total',
      'intercom_video_frames_dropped_total{reason="awaiting_key"}',
      'intercom_video_frames_refused_total{reason="bad_frame"}',
      'intercom_video_frames_refused_total{reason="unwatched"}',
    ] as const;
    const before = await read(series);
    const { uid, terminal, seat } = await videoSource();
    expect(await terminal.request({ type: 'videoCaps', codecs: ['h264'] })).toMatchObject({ type: 'ack' });
    const viewer = await seat();
    expect(await viewer.request({ type: 'videoApply', uid })).toMatchObject({ type: 'ack', codec: 'h264' });
    expect(seriesDelta(before, await read(series.slice(0, 3)))).toEqual({
      intercom_video_sources: 1,
      intercom_video_streams: 1,
      intercom_video_viewers: 1,
    });
    // A new viewer starts at a key frame: the P frame before it is skipped, the IDR and the next P reach it.
    const frames = [up(VideoCodec.h264, 1, P_FRAME), up(VideoCodec.h264, 2, IDR), up(VideoCodec.h264, 3, P_FRAME)];
    for (const frame of frames) terminal.socket.send(frame);
    await waitFor(() => viewer.frames.length === 2);
    // jpeg was not announced: refused.
    terminal.socket.send(up(VideoCodec.jpeg, 4, Buffer.from([0xff, 0xd8, 0xff, 0xd9])));
    expect(await viewer.request({ type: 'videoFree', uid })).toMatchObject({ type: 'ack' });
    terminal.socket.send(up(VideoCodec.h264, 5, IDR));
    await waitFor(() => t.app.talk.video.counters.unwatched >= 1);
    const moved = seriesDelta(before, await read(series));
    expect(moved).toEqual({
      intercom_video_sources: 1,
      intercom_video_streams: 0,
      intercom_video_viewers: 0,
      intercom_video_frames_relayed_total: 3,
      intercom_video_bytes_relayed_total: frames.reduce((sum, f) => sum + f.length, 0),
      'intercom_video_frames_dropped_total{reason="awaiting_key"}': 1,
      'intercom_video_frames_refused_total{reason="bad_frame"}': 1,
      'intercom_video_frames_refused_total{reason="unwatched"}': 1,
    });
    terminal.close();
    viewer.close();
    await waitFor(() => t.app.talk.video.census().sources === 0);
  });

  it('count a viewer that falls behind: its queue is dropped and it restarts at the next key frame', async () => {
    const series = [
      'intercom_video_frames_dropped_total{reason="queue_full"}',
      'intercom_video_key_frame_restarts_total',
    ] as const;
    const before = await read(series);
    const { uid, terminal, seat } = await videoSource();
    expect(await terminal.request({ type: 'videoCaps', codecs: ['jpeg'] })).toMatchObject({ type: 'ack' });
    const viewer = await seat();
    expect(await viewer.request({ type: 'videoApply', uid })).toMatchObject({ type: 'ack', codec: 'jpeg' });
    // The seat stops reading its socket: the kernel's buffers fill, then the 256 KiB in flight, then the 30 queued.
    viewer.socket.pause();
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(400 * 1024, 7), Buffer.from([0xff, 0xd9])]);
    for (let i = 0; i < 100 && t.app.talk.video.counters.keyFrameRestarts === 0; i += 1) {
      terminal.socket.send(up(VideoCodec.jpeg, i, jpeg));
      await new Promise((r) => setTimeout(r, 20));
    }
    const { keyFrameRestarts, queueFull } = t.app.talk.video.counters;
    expect(keyFrameRestarts).toBeGreaterThanOrEqual(1);
    const moved = seriesDelta(before, await read(series));
    // Each restart drops the 30 waiting frames and the one that found them.
    expect(moved).toEqual({
      'intercom_video_frames_dropped_total{reason="queue_full"}': queueFull,
      intercom_video_key_frame_restarts_total: keyFrameRestarts,
    });
    expect(queueFull).toBe(31 * keyFrameRestarts);
    viewer.socket.resume();
    terminal.close();
    viewer.close();
  });
});
