/**
 * What an audio outbox writes to: a Buffer is a whole WebSocket frame (webSocketFrame), written to
 * the socket as it is; a string is a text message, framed by the WebSocket library.
 */
export interface WireSink {
  send(entry: Buffer | string, callback: (error?: Error | null) => void): void;
}

/**
 * One listener's audio queue. Up to `maxInFlight` frames are handed to the socket at once; behind
 * those, at most `maxQueued` frames wait. When that queue is full the listener's OLDEST waiting
 * frame is dropped (late speech is worth less than current speech), so a slow listener loses its
 * own frames and never holds up the talker or the other listeners. Floor events (text) travel in
 * the same queue so that a floorIdle never overtakes the burst it ends; they are never dropped:
 * one at the head of a full queue is written at once instead.
 */
export class AudioOutbox {
  // Defaults: 32 writes in the socket and 100 frames (2 s of speech) waiting; a listener further
  // behind than that hears the newest 2.6 s (3.2 s with bundles), not a growing delay.
  private readonly queue: (Buffer | string | undefined)[];
  /** Audio frames in each queued entry (0 for a floor event). */
  private readonly counts: Uint8Array;
  private queuedFrames = 0;
  private head = 0;
  private size = 0;
  private inFlight = 0;
  /** Frames this listener lost to its full queue. */
  dropped = 0;
  /** The instance's count of frames lost by every listener (the talk service sets it; metrics). */
  totals: { dropped: number } | null = null;
  private closed = false;
  private readonly written = (error?: Error | null) => {
    this.inFlight -= 1;
    if (error) this.closed = true;
    this.drain();
  };

  constructor(
    private readonly sink: WireSink,
    private readonly maxInFlight = 32,
    maxQueued = 100,
  ) {
    this.queue = new Array<Buffer | string | undefined>(maxQueued);
    this.counts = new Uint8Array(maxQueued);
  }

  get queued(): number {
    return this.size;
  }

  /**
   * An audio entry (one or more whole WebSocket frames, built once for every listener: `frames` says
   * how many, two for a bundle) or a floor event (JSON text). The queue's bound counts frames, so a
   * listener that falls behind hears the same newest 2 s with or without bundles.
   */
  push(entry: Buffer | string, frames = 1): void {
    if (this.closed) return;
    if (this.inFlight < this.maxInFlight && this.size === 0) return this.write(entry);
    const capacity = this.queue.length;
    const adding = typeof entry === 'string' ? 0 : frames;
    while (this.size > 0 && (this.size === capacity || this.queuedFrames + adding > capacity)) {
      const count = this.counts[this.head] as number;
      const oldest = this.shift();
      if (typeof oldest === 'string') this.write(oldest);
      else {
        this.dropped += count;
        if (this.totals) this.totals.dropped += count;
      }
    }
    const at = (this.head + this.size) % capacity;
    this.queue[at] = entry;
    this.counts[at] = adding;
    this.queuedFrames += adding;
    this.size += 1;
  }

  close(): void {
    this.closed = true;
    this.queue.fill(undefined);
    this.size = 0;
    this.queuedFrames = 0;
  }

  private shift(): Buffer | string {
    const entry = this.queue[this.head] as Buffer | string;
    this.queue[this.head] = undefined;
    this.queuedFrames -= this.counts[this.head] as number;
    this.head = (this.head + 1) % this.queue.length;
    this.size -= 1;
    return entry;
  }

  private drain(): void {
    while (!this.closed && this.size > 0 && this.inFlight < this.maxInFlight) this.write(this.shift());
  }

  private write(entry: Buffer | string): void {
    this.inFlight += 1;
    try {
      this.sink.send(entry, this.written);
    } catch {
      this.inFlight -= 1;
      this.closed = true;
    }
  }
}
