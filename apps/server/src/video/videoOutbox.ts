import type { BinarySink } from '../http/webSocketFrame.js';

/** Bounds of one viewer's video queue. */
export interface VideoOutboxLimits {
  /** Bytes handed to the socket and not yet written out. */
  maxInFlightBytes: number;
  /** Frames waiting behind those. */
  maxQueued: number;
}

export const DEFAULT_VIDEO_OUTBOX: VideoOutboxLimits = { maxInFlightBytes: 256 * 1024, maxQueued: 30 };

/** Frames lost by every viewer of an instance together (metrics). */
export interface VideoDrops {
  /** Frames thrown away because a viewer's queue was full. */
  queueFull: number;
  /** Frames skipped while a viewer waited for a key frame (a new viewer, or after a full queue). */
  awaitingKey: number;
  /** Times a viewer fell behind, lost its queue and started again from the next key frame. */
  keyFrameRestarts: number;
}

/**
 * One viewer's video queue. Frames go to the socket while less than `maxInFlightBytes` are unwritten;
 * behind that at most `maxQueued` frames wait. A frame that finds the queue full drops EVERY waiting
 * frame and itself, and the viewer then skips frames until the next key frame: a decoder cannot use
 * the frames after a gap, so a viewer that falls behind loses a stretch of picture and starts again
 * from a fresh key frame, never a growing delay. A new viewer also starts at a key frame.
 */
export class VideoOutbox {
  private readonly queue: Buffer[] = [];
  private inFlightBytes = 0;
  private waitForKey = true;
  private closed = false;
  /** Frames this viewer lost (a full queue, or skipped while waiting for a key frame). */
  dropped = 0;
  sent = 0;

  constructor(
    private readonly sink: BinarySink,
    private readonly limits: VideoOutboxLimits = DEFAULT_VIDEO_OUTBOX,
    /** The instance's totals, counted alongside `dropped`. */
    private readonly totals: VideoDrops | null = null,
  ) {}

  get queued(): number {
    return this.queue.length;
  }

  push(frame: Buffer, key: boolean): void {
    if (this.closed) return;
    if (this.waitForKey && !key) {
      this.dropped += 1;
      if (this.totals) this.totals.awaitingKey += 1;
      return;
    }
    this.waitForKey = false;
    if (this.queue.length === 0 && this.inFlightBytes < this.limits.maxInFlightBytes) return this.write(frame);
    if (this.queue.length >= this.limits.maxQueued) {
      this.dropped += this.queue.length + 1;
      if (this.totals) {
        this.totals.queueFull += this.queue.length + 1;
        this.totals.keyFrameRestarts += 1;
      }
      this.queue.length = 0;
      // Even a key frame that finds the queue full is dropped: the next one restarts the picture.
      this.waitForKey = true;
      return;
    }
    this.queue.push(frame);
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private readonly written = (bytes: number) => (error?: Error) => {
    this.inFlightBytes -= bytes;
    if (error) this.closed = true;
    this.drain();
  };

  private drain(): void {
    while (!this.closed && this.queue.length > 0 && this.inFlightBytes < this.limits.maxInFlightBytes) {
      this.write(this.queue.shift() as Buffer);
    }
  }

  private write(frame: Buffer): void {
    this.inFlightBytes += frame.length;
    this.sent += 1;
    try {
      this.sink.send(frame, this.written(frame.length));
    } catch {
      this.inFlightBytes -= frame.length;
      this.closed = true;
    }
  }
}
