import { FRAME_SAMPLES } from './opusConfig';

/**
 * Cuts the microphone's render quanta (128 samples in Chromium) into 20 ms frames and hands each
 * over with its level (RMS). A handed frame is the receiver's (it is transferred to the main
 * thread): the cutter starts a fresh one, the only allocation per 20 ms.
 */
export class FrameCutter {
  private frame = new Float32Array(FRAME_SAMPLES);
  private filled = 0;

  constructor(private readonly onFrame: (samples: Float32Array, rms: number) => void) {}

  /** Forgets a partly filled frame (a talk starts or stops). */
  reset(): void {
    this.filled = 0;
  }

  push(input: Float32Array): void {
    let offset = 0;
    while (offset < input.length) {
      const take = Math.min(FRAME_SAMPLES - this.filled, input.length - offset);
      this.frame.set(input.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === FRAME_SAMPLES) this.handOver();
    }
  }

  private handOver(): void {
    const frame = this.frame;
    let sum = 0;
    for (let i = 0; i < FRAME_SAMPLES; i += 1) sum += frame[i]! * frame[i]!;
    this.frame = new Float32Array(FRAME_SAMPLES);
    this.filled = 0;
    this.onFrame(frame, Math.sqrt(sum / FRAME_SAMPLES));
  }
}
