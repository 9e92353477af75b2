import type { VideoCodecName } from '@intercom/contract';

/** One encoded frame of a watched terminal, as it came off the wire. */
export interface EncodedVideo {
  uid: number;
  /** VideoCodec byte: 1 H.264 Annex B access unit, 2 JPEG. */
  codec: number;
  /** The terminal's capture time: epoch ms modulo 2^32. */
  timestamp: number;
  payload: Uint8Array;
}

/**
 * Where the video panel gets frames from and how it applies and frees. The console's talk owner
 * (`src/talk`: the local agent, or the browser's own seat) will implement it; `SeatVideoSource`
 * implements it over a dispatcher seat `/terminal` WebSocket of this tab.
 */
export interface VideoFrameSource {
  /** Starts watching; resolves with the codec the terminal was asked for, rejects with a server code. */
  applyVideo(uid: number): Promise<{ codec: VideoCodecName }>;
  freeVideo(uid: number): Promise<void>;
  /** Frames of `uid` as they arrive; returns the unsubscribe. */
  subscribe(uid: number, onFrame: (frame: EncodedVideo) => void): () => void;
  /** The source lost its connection: every stream ended. Returns the unsubscribe. */
  onLost(listener: () => void): () => void;
  close(): void;
}

/** An error answer of the seat (the server's `code`: not_video_member, no_video, ...). */
export class VideoSourceError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}
