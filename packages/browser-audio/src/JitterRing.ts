/** Samples a stream must hold before it plays (40 ms: the server may send two frames at a time). */
export const PREBUFFER = 1920;
/** The most a stream holds (300 ms); a burst beyond it drops the OLDEST samples, so latency stays bounded. */
export const MAX_BUFFER = 14_400;

/**
 * One heard stream's jitter buffer: a ring of decoded samples, played once it holds PREBUFFER and
 * bounded to MAX_BUFFER. Runs on the audio rendering thread: no allocation after construction.
 */
export class JitterRing {
  readonly data = new Float32Array(MAX_BUFFER);
  read = 0;
  size = 0;
  playing = false;

  push(samples: Float32Array): void {
    for (let i = 0; i < samples.length; i += 1) {
      if (this.size === MAX_BUFFER) {
        this.read = (this.read + 1) % MAX_BUFFER;
        this.size -= 1;
      }
      this.data[(this.read + this.size) % MAX_BUFFER] = samples[i]!;
      this.size += 1;
    }
    if (this.size >= PREBUFFER) this.playing = true;
  }

  /**
   * Adds up to `output.length` samples into `output` (streams are mixed) and returns how many.
   * Run dry, it waits for a new prebuffer before playing again (a new burst).
   */
  mixInto(output: Float32Array): number {
    if (!this.playing) return 0;
    const take = Math.min(output.length, this.size);
    for (let i = 0; i < take; i += 1) output[i]! += this.data[(this.read + i) % MAX_BUFFER]!;
    this.read = (this.read + take) % MAX_BUFFER;
    this.size -= take;
    if (this.size === 0) this.playing = false;
    return take;
  }
}
