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
 * Where the video panel gets frames from and how it applies and frees: `TalkVideoSource`, over
 * the console's one talk owner (the local agent's ApplyVideo/FreeVideo, or this browser's seat).
 * Tests hand the page their own.
 */
export interface VideoFrameSource {
  /** Starts watching; rejects with a TalkError of the server's code (not_video_member, no_video...). */
  applyVideo(uid: number): Promise<void>;
  freeVideo(uid: number): Promise<void>;
  /** Frames of `uid` as they arrive; returns the unsubscribe. */
  subscribe(uid: number, onFrame: (frame: EncodedVideo) => void): () => void;
  /** The seat was lost (or replaced by a new login): every stream ended. Returns the unsubscribe. */
  onLost(listener: () => void): () => void;
  /** Frees every stream still watched (the page goes; the seat stays). */
  close(): void;
}
