import type { Speaker } from './audioBackend.js';
import { JITTER_TARGET_FRAMES, JitterBuffer } from './jitterBuffer.js';
import { OpusDecoder } from './opusCodec.js';
import { FRAME_MS, FRAME_SAMPLES } from './pcmFormat.js';

/** A talker silent this long is forgotten (its decoder freed); 1 s is well past any jitter. */
const SOURCE_IDLE_MS = 1_000;

interface Source {
  buffer: JitterBuffer;
  decoder: OpusDecoder;
  lastPacketAt: number;
}

/**
 * Everything the seat hears (several monitored channels, calls) mixed onto one speaker: one jitter
 * buffer and Opus decoder per talker (`cid:speaker`), a 20 ms playout clock that runs only while
 * someone is heard, sums the talkers' frames (clipped) and writes them to the speaker.
 */
export class Playout {
  private readonly sources = new Map<string, Source>();
  private timer: NodeJS.Timeout | undefined;
  private started = 0;
  private ticks = 0;
  /** Frames written to the speaker and packets decoded (Health, tests, the benchmark). */
  framesPlayed = 0;
  packetsDecoded = 0;
  private droppedByGone = 0;
  /** Called with each packet's arrival time when it is played: the benchmark's jitter-buffer delay. */
  onPlayed: ((arrivedAt: number) => void) | undefined;
  private readonly arrivals = new Map<Buffer, number>();

  constructor(private readonly speaker: Speaker) {}

  push(cid: number, speakerId: number, seq: number, packet: Buffer): void {
    const key = `${cid}:${speakerId}`;
    let source = this.sources.get(key);
    if (!source) {
      source = { buffer: new JitterBuffer(), decoder: new OpusDecoder(), lastPacketAt: 0 };
      this.sources.set(key, source);
    }
    source.lastPacketAt = performance.now();
    if (this.onPlayed) this.arrivals.set(packet, source.lastPacketAt);
    source.buffer.push(seq, packet);
    if (!this.timer) {
      this.started = performance.now();
      this.ticks = 0;
      this.timer = setTimeout(() => this.tick(), 0);
    }
  }

  private tick(): void {
    const now = performance.now();
    const mix = new Int32Array(FRAME_SAMPLES);
    let heard = false;
    for (const [key, source] of this.sources) {
      const packet = source.buffer.pop(now - source.lastPacketAt >= JITTER_TARGET_FRAMES * FRAME_MS);
      if (packet === undefined) {
        if (source.buffer.size === 0 && now - source.lastPacketAt > SOURCE_IDLE_MS) {
          source.decoder.delete();
          this.droppedByGone += source.buffer.dropped;
          this.sources.delete(key);
        }
        continue;
      }
      // A lost packet (null): repeat nothing, play silence for its 20 ms; Opus recovers on the next one.
      if (packet === null) continue;
      const pcm = source.decoder.decode(packet);
      this.packetsDecoded += 1;
      const arrived = this.arrivals.get(packet);
      if (arrived !== undefined) {
        this.arrivals.delete(packet);
        this.onPlayed?.(arrived);
      }
      for (let i = 0; i < FRAME_SAMPLES; i += 1) mix[i]! += pcm[i] ?? 0;
      heard = true;
    }
    if (heard) {
      this.speaker.write(Int16Array.from(mix, (v) => Math.max(-32768, Math.min(32767, v))));
      this.framesPlayed += 1;
    }
    if (this.sources.size === 0) {
      this.timer = undefined;
      return;
    }
    this.ticks += 1;
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.started + this.ticks * FRAME_MS - performance.now()));
  }

  /** Packets the jitter buffers dropped (late, overfull, or skipped to bring the delay down). */
  get packetsDropped(): number {
    let dropped = this.droppedByGone;
    for (const source of this.sources.values()) dropped += source.buffer.dropped;
    return dropped;
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const source of this.sources.values()) source.decoder.delete();
    this.sources.clear();
    this.speaker.close();
  }
}
