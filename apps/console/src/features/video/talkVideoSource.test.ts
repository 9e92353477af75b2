import type { TalkSeat } from '@intercom/contract';
import { describe, expect, test, vi } from 'vitest';
import { TalkError, type TalkState, type TalkVideoFrame } from '../../talk';
import { TalkVideoSource, type TalkVideoOwner } from './talkVideoSource';
import type { EncodedVideo } from './videoFrameSource';

const SEAT: TalkSeat = { dispatchNo: 'D3', A_ID: 3, E_ID: 1, name: 'Admin', priority: 7 };

/** The talk owner as the video panel sees it: a seat that comes and goes, frames, apply and free. */
function fakeOwner() {
  let state = { seat: SEAT } as TalkState;
  const listeners = new Set<() => void>();
  const frameListeners = new Set<(frame: TalkVideoFrame) => void>();
  const owner = {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onVideoFrame: (listener: (frame: TalkVideoFrame) => void) => {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    applyVideo: vi.fn((uid: number) => {
      if (!state.seat) return Promise.reject(new TalkError('not_logged_in'));
      if (uid !== 7 && uid !== 8) return Promise.reject(new TalkError('not_video_member'));
      return Promise.resolve();
    }),
    freeVideo: vi.fn((_uid: number) => Promise.resolve()),
  } satisfies TalkVideoOwner;
  const setSeat = (seat: TalkSeat | null) => {
    state = { ...state, seat };
    listeners.forEach((listener) => listener());
  };
  const frame = (uid: number) =>
    frameListeners.forEach((listener) => listener({ uid, codec: 2, timestamp: 5, payload: Uint8Array.of(1) }));
  return { owner, setSeat, frame, listeners, frameListeners };
}

describe('TalkVideoSource', () => {
  test('applies and frees through the talk owner; each tile gets only its terminal’s frames', async () => {
    const { owner, frame, frameListeners } = fakeOwner();
    const source = new TalkVideoSource(owner);
    const seven: EncodedVideo[] = [];
    const eight: EncodedVideo[] = [];
    const off7 = source.subscribe(7, (f) => seven.push(f));
    source.subscribe(8, (f) => eight.push(f));
    await source.applyVideo(7);
    expect(owner.applyVideo).toHaveBeenCalledWith(7);
    frame(7);
    frame(7);
    frame(8);
    expect(seven.map((f) => f.uid)).toEqual([7, 7]);
    expect(eight.map((f) => f.uid)).toEqual([8]);
    off7();
    expect(frameListeners.size).toBe(1);
    await expect(source.applyVideo(9)).rejects.toEqual(new TalkError('not_video_member'));
    await source.freeVideo(7);
    expect(owner.freeVideo).toHaveBeenCalledWith(7);
  });

  test('a lost seat ends every stream once; nothing is freed on a seat that is gone; close frees the rest', async () => {
    const { owner, setSeat, listeners } = fakeOwner();
    const source = new TalkVideoSource(owner);
    const lost = vi.fn();
    const stopListening = source.onLost(lost);
    await source.applyVideo(7);
    await source.applyVideo(8);
    setSeat(null);
    setSeat(null);
    expect(lost).toHaveBeenCalledOnce();
    await source.freeVideo(7);
    expect(owner.freeVideo).not.toHaveBeenCalled();

    // A new login is a new seat: streams of the old one end too.
    setSeat({ ...SEAT });
    await source.applyVideo(7);
    setSeat({ ...SEAT });
    expect(lost).toHaveBeenCalledTimes(2);

    await source.applyVideo(7);
    await source.applyVideo(8);
    source.close();
    await vi.waitFor(() => expect(owner.freeVideo.mock.calls.map(([uid]) => uid)).toEqual([7, 8]));
    stopListening();
    expect(listeners.size).toBe(0);
  });
});
