import { VideoCodec } from '@intercom/contract';
import { decodeVideoUp } from '@intercom/terminal-client';
import { describe, expect, it } from 'vitest';
import { CameraSender, type CameraParts, type PictureSink } from './cameraSender';

/** Fakes of the browser's parts: ticks by hand, an encoder that answers when told, a socket that can be busy. */
function rig(options: { openFails?: boolean } = {}) {
  const frames: Uint8Array[] = [];
  const stops: string[] = [];
  let tick: (() => void) | undefined;
  let sink: PictureSink | undefined;
  const asked: { capturedAt: number; key: boolean }[] = [];
  let openCamera: () => void = () => undefined;
  const state = { busy: false, open: true, now: 1_000, backlog: 0 };
  const parts: CameraParts = {
    openCamera: () =>
      new Promise((resolve, reject) => {
        openCamera = () =>
          options.openFails
            ? reject(new Error('NotAllowedError'))
            : resolve({ grab: () => ({}) as CanvasImageSource, stop: () => stops.push('camera') });
      }),
    encoder: (_codec, onPicture) => {
      sink = onPicture;
      return {
        encode: (_picture, capturedAt, key) => asked.push({ capturedAt, key }),
        get backlog() {
          return state.backlog;
        },
        close: () => stops.push('encoder'),
      };
    },
    sendFrame: (frame) => state.open && frames.push(frame) > 0,
    busy: () => state.busy,
    now: () => state.now,
    every: (_ms, fn) => {
      tick = fn;
      return () => {
        tick = undefined;
        stops.push('timer');
      };
    },
  };
  const sender = new CameraSender(parts, 10);
  /** Starts and lets the camera open. */
  const started = async (codec: 'h264' | 'jpeg') => {
    const done = sender.start(codec);
    openCamera();
    await done;
  };
  /** One tick, its picture (if one was taken) encoded at once as a key frame or not. */
  const picture = (key: boolean) => {
    const before = asked.length;
    tick?.();
    const last = asked.at(-1);
    if (last && asked.length > before)
      sink?.({ payload: Uint8Array.of(0, 0, 1, key ? 0x65 : 0x41), key, capturedAt: last.capturedAt });
    state.now += 100;
  };
  return {
    sender,
    frames,
    stops,
    asked,
    state,
    started,
    picture,
    openCamera: () => openCamera(),
    ticking: () => tick !== undefined,
  };
}

describe('the camera between videoStart and videoStop', () => {
  it('opens the camera, sends each picture as a video frame in the codec asked for, and stops everything', async () => {
    const r = rig();
    await r.started('jpeg');
    expect(r.sender.view).toEqual({ state: 'on', codec: 'jpeg' });
    r.picture(true);
    r.picture(true);
    expect(r.frames.map((frame) => decodeVideoUp(frame))).toEqual([
      { codec: VideoCodec.jpeg, timestamp: 1_000, payload: Uint8Array.of(0, 0, 1, 0x65) },
      { codec: VideoCodec.jpeg, timestamp: 1_100, payload: Uint8Array.of(0, 0, 1, 0x65) },
    ]);
    r.sender.stop();
    expect(r.sender.view).toEqual({ state: 'off' });
    expect(r.stops.sort()).toEqual(['camera', 'encoder', 'timer']);
    expect(r.ticking()).toBe(false);
  });

  it('asks for a key frame first and then at least every second', async () => {
    const r = rig();
    await r.started('h264');
    for (let i = 0; i < 12; i += 1) r.picture(i % 10 === 0);
    expect(r.asked.map((a) => a.key)).toEqual([true, ...Array(9).fill(false), true, false]);
    expect(r.frames).toHaveLength(12);
    expect(r.frames.every((frame) => frame[1] === VideoCodec.h264)).toBe(true);
  });

  it('skips pictures while the socket is busy, then waits for a key frame', async () => {
    const r = rig();
    await r.started('h264');
    r.picture(true);
    r.state.busy = true;
    r.picture(false);
    r.picture(false);
    expect(r.sender.skipped).toBe(2);
    r.state.busy = false;
    r.picture(true);
    expect(r.asked.at(-1)?.key).toBe(true);
    expect(r.frames).toHaveLength(2);
  });

  it('drops delta frames still coming out of the encoder after a gap, and skips while the encoder is behind', async () => {
    const r = rig();
    await r.started('h264');
    r.picture(true);
    r.state.open = false;
    r.picture(false); // the socket refused it: a gap
    r.state.open = true;
    r.picture(false); // a delta frame after the gap: useless to a decoder
    r.picture(true);
    expect(r.frames).toHaveLength(2);
    r.state.backlog = 2;
    r.picture(false);
    expect(r.asked).toHaveLength(4);
    expect(r.sender.skipped).toBe(3);
  });

  it('a stop while the camera is opening closes it when it opens; a start in the same codec is ignored', async () => {
    const r = rig();
    const opening = r.sender.start('jpeg');
    expect(r.sender.view).toEqual({ state: 'starting', codec: 'jpeg' });
    void r.sender.start('jpeg');
    r.sender.stop();
    r.openCamera();
    await opening;
    expect(r.stops).toEqual(['camera']);
    expect(r.sender.view).toEqual({ state: 'off' });
    expect(r.ticking()).toBe(false);
  });

  it('a start in another codec restarts in it', async () => {
    const r = rig();
    await r.started('h264');
    await r.started('jpeg');
    expect(r.stops.sort()).toEqual(['camera', 'encoder', 'timer']);
    expect(r.sender.view).toEqual({ state: 'on', codec: 'jpeg' });
  });

  it('a camera that cannot be opened (permission refused) shows as failed, and a stop clears it', async () => {
    const r = rig({ openFails: true });
    await r.started('jpeg');
    expect(r.sender.view).toEqual({ state: 'failed' });
    r.sender.stop();
    expect(r.sender.view).toEqual({ state: 'off' });
  });
});
