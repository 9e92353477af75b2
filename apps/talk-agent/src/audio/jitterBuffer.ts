/** Frames held before playout starts: 60 ms absorbs the jitter of a loopback or LAN relay. */
export const JITTER_TARGET_FRAMES = 3;
/** The most a buffer holds (200 ms). */
export const JITTER_MAX_FRAMES = 10;

/**
 * One talker's packets in `seq` order (u16, wrapping), played out one per 20 ms tick after
 * JITTER_TARGET_FRAMES have arrived. Bounded: when a burst overfills it, the OLDEST packets are
 * dropped, so the delay a listener hears never grows past JITTER_MAX_FRAMES × 20 ms. A packet older
 * than the one last played (late, or a duplicate) is dropped too. A gap gives `null` (the decoder's
 * loss concealment fills it).
 */
export class JitterBuffer {
  private readonly packets = new Map<number, Buffer>();
  private next: number | undefined;
  private primed = false;
  dropped = 0;

  push(seq: number, packet: Buffer): void {
    if (this.next !== undefined && ahead(this.next, seq) < 0) {
      this.dropped += 1;
      return;
    }
    this.packets.set(seq, packet);
    this.next ??= seq;
    while (this.packets.size > JITTER_MAX_FRAMES) {
      this.packets.delete(this.oldest());
      this.dropped += 1;
      this.next = this.oldest();
    }
    if (this.packets.size >= JITTER_TARGET_FRAMES) this.primed = true;
  }

  /** The packet for this tick: a Buffer, `null` for a lost one, `undefined` while waiting or empty. */
  pop(): Buffer | null | undefined {
    if (!this.primed || this.next === undefined) return undefined;
    if (this.packets.size === 0) {
      // Drained: wait for JITTER_TARGET_FRAMES again before playing (the talker paused or ended).
      this.primed = false;
      return undefined;
    }
    const packet = this.packets.get(this.next);
    this.packets.delete(this.next);
    this.next = (this.next + 1) & 0xffff;
    return packet ?? null;
  }

  get size(): number {
    return this.packets.size;
  }

  private oldest(): number {
    let oldest: number | undefined;
    for (const seq of this.packets.keys()) if (oldest === undefined || ahead(oldest, seq) < 0) oldest = seq;
    return oldest!;
  }
}

/** How far `seq` is after `from` on the u16 circle (-32768..32767). */
function ahead(from: number, seq: number): number {
  return ((((seq - from) & 0xffff) + 0x8000) & 0xffff) - 0x8000;
}
