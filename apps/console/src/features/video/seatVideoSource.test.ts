import { VideoCodec, VideoFrame } from '@intercom/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeatVideoSource } from './seatVideoSource';
import { VideoSourceError, type EncodedVideo } from './videoFrameSource';

vi.mock('../../shared/api/apiClient', () => ({
  apiRequest: vi.fn(async () => ({ BaseData: { authCode: 'a'.repeat(32) } })),
}));

/** A /terminal socket that answers like the server: acks, or errors for unknown terminals. */
class FakeSocket {
  binaryType = '';
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((event: { data: ArrayBuffer | string }) => void) | null = null;
  onclose: (() => void) | null = null;
  readonly sent: Record<string, unknown>[] = [];
  closed = false;

  constructor() {
    setTimeout(() => this.onopen?.(), 0);
  }

  send(text: string) {
    const message = JSON.parse(text) as Record<string, unknown>;
    this.sent.push(message);
    const reply =
      message.type === 'videoApply' && message.uid !== 7
        ? { type: 'error', seq: message.seq, code: 'no_video' }
        : { type: 'ack', seq: message.seq, codec: 'jpeg' };
    setTimeout(() => this.onmessage?.({ data: JSON.stringify(reply) }), 0);
  }

  frame(uid: number, payload: number[]) {
    const bytes = new Uint8Array(VideoFrame.downHeaderBytes + payload.length);
    const view = new DataView(bytes.buffer);
    bytes[0] = VideoFrame.kindVideo;
    view.setUint32(1, uid);
    bytes[5] = VideoCodec.jpeg;
    view.setUint32(6, 1234);
    bytes.set(payload, VideoFrame.downHeaderBytes);
    this.onmessage?.({ data: bytes.buffer });
  }

  close() {
    this.closed = true;
  }
}

let sockets: FakeSocket[] = [];
const source = () =>
  new SeatVideoSource(
    () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    () => 'ws://test/terminal',
  );

afterEach(() => {
  sockets = [];
});

describe('SeatVideoSource', () => {
  it('logs in as a seat on the first apply, hands frames to the subscribers of their U_ID, closes after the last free', async () => {
    const videos = source();
    const seen: EncodedVideo[] = [];
    const other: EncodedVideo[] = [];
    videos.subscribe(7, (frame) => seen.push(frame));
    videos.subscribe(8, (frame) => other.push(frame));
    expect(await videos.applyVideo(7)).toEqual({ codec: 'jpeg' });
    const socket = sockets[0] as FakeSocket;
    expect(socket.sent.map((m) => m.type)).toEqual(['login', 'videoApply']);
    expect(socket.sent[0]).toMatchObject({ authCode: 'a'.repeat(32) });
    socket.frame(7, [0xff, 0xd8, 0xff, 0xd9]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ uid: 7, codec: VideoCodec.jpeg, timestamp: 1234 });
    expect([...(seen[0]?.payload ?? [])]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect(other).toHaveLength(0);
    await videos.freeVideo(7);
    expect(socket.sent.at(-1)).toMatchObject({ type: 'videoFree', uid: 7 });
    expect(socket.closed).toBe(true);
  });

  it('rejects an apply with the server code and tells when the socket is lost', async () => {
    const videos = source();
    await expect(videos.applyVideo(9)).rejects.toEqual(new VideoSourceError('no_video'));
    const lost = vi.fn();
    videos.onLost(lost);
    await videos.applyVideo(7);
    sockets[0]?.onclose?.();
    expect(lost).toHaveBeenCalledOnce();
    // The next apply opens a new seat.
    await videos.applyVideo(7);
    expect(sockets).toHaveLength(2);
  });
});
