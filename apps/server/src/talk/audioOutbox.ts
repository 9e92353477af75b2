/** What an outbox writes to: a WebSocket's `send` (binary for a Buffer, text for a string). */
export interface BinarySink {
  send(data: Buffer | string, callback: (error?: Error) => void): void;
}

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
  // Defaults: 32 frames in the socket and 100 (2 s of speech) waiting; a listener further behind
  // than that hears the newest 2.6 s, not a growing delay.
  private readonly queue: (Buffer | string | undefined)[];
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
  }

  get queued(): number {
    return this.size;
  }

  /**
   * An audio frame (a whole WebSocket frame, built once for every listener) or a floor event (JSON
   * text).
   */
  push(entry: Buffer | string): void {
    if (this.closed) return;
    if (this.inFlight < this.maxInFlight && this.size === 0) return this.write(entry);
    const capacity = this.queue.length;
    if (this.size === capacity) {
      const oldest = this.shift();
      if (typeof oldest === 'string') this.write(oldest);
      else {
        this.dropped += 1;
        if (this.totals) this.totals.dropped += 1;
      }
    }
    this.queue[(this.head + this.size) % capacity] = entry;
    this.size += 1;
  }

  close(): void {
    this.closed = true;
    this.queue.fill(undefined);
    this.size = 0;
  }

  private shift(): Buffer | string {
    const entry = this.queue[this.head] as Buffer | string;
    this.queue[this.head] = undefined;
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
