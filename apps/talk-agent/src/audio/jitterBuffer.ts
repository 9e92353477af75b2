/** Frames held before playout starts: 60 ms absorbs the jitter of a loopback or LAN relay. */
export const JITTER_TARGET_FRAMES = 3;
/** The most a buffer holds (200 ms). */
export const JITTER_MAX_FRAMES = 10;
/** Above this many frames at playout time, one is skipped per tick until the delay is back near the target. */
const JITTER_DRAIN_ABOVE = 2 * JITTER_TARGET_FRAMES;
/** A packet this far behind the playout point starts a new stream (the talker's seq began again). */
const RESTART_BEHIND = 50;

/**
 * One talker's packets in `seq` order (u16, wrapping), played out one per 20 ms tick after
 * JITTER_TARGET_FRAMES have arrived. What is dropped, and why:
 * - when a burst overfills it, the OLDEST packets, so the delay never grows past JITTER_MAX_FRAMES × 20 ms;
 * - while more than JITTER_DRAIN_ABOVE wait at a tick, the oldest one: after a stall delivered many at
 *   once, the delay shrinks back to the target instead of staying high for the rest of the burst;
 * - a packet older than the one last played (late, or a duplicate).
 * A gap gives `null` (20 ms of silence). A new talk burst may start its seq anew: when the buffer is
 * empty, or a packet is far behind, playout restarts from it. Fewer than JITTER_TARGET_FRAMES left
 * when the talker has gone quiet (the end of a burst, after a stall drained the buffer) are played
 * anyway: `pop(true)`, else they would wait for packets that never come.
 */
export class JitterBuffer {
  private readonly packets = new Map<number, Buffer>();
  private next: number | undefined;
  private primed = false;
  dropped = 0;

  push(seq: number, packet: Buffer): void {
    if (this.next !== undefined && (this.packets.size === 0 || ahead(this.next, seq) < -RESTART_BEHIND)) {
      this.packets.clear();
      this.next = seq;
    }
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

  /**
   * The packet for this tick: a Buffer, `null` for a lost one, `undefined` while waiting or empty.
   * `talkerQuiet`: no packet has come for the target delay, so what is held is all there will be.
   */
  pop(talkerQuiet = false): Buffer | null | undefined {
    if (talkerQuiet && this.packets.size > 0) this.primed = true;
    if (!this.primed || this.next === undefined) return undefined;
    if (this.packets.size === 0) {
      // Drained: wait for JITTER_TARGET_FRAMES again before playing (the talker paused or ended).
      this.primed = false;
      return undefined;
    }
    while (this.packets.size > JITTER_DRAIN_ABOVE) {
      const skipped = this.next;
      this.next = (this.next + 1) & 0xffff;
      if (this.packets.delete(skipped)) this.dropped += 1;
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
