import type { Microphone, Speaker } from './audioBackend.js';
import { FRAME_MS, FRAME_SAMPLES } from './pcmFormat.js';
import { WavWriter, readWav } from './wavFile.js';

/**
 * --mic-file: each start() plays the WAV from its beginning in 20 ms frames at real time, once;
 * after its end the microphone is silent (nothing is sent, as if the dispatcher stopped speaking).
 */
export class WavFileMicrophone implements Microphone {
  readonly name: string;
  private readonly samples: Int16Array;
  private timer: NodeJS.Timeout | undefined;

  constructor(file: string) {
    this.name = `file:${file}`;
    this.samples = readWav(file);
  }

  /** The file's length in ms. */
  get durationMs(): number {
    return Math.floor(this.samples.length / FRAME_SAMPLES) * FRAME_MS;
  }

  start(onFrame: (pcm: Int16Array) => void): void {
    this.stop();
    const started = performance.now();
    let frame = 0;
    const tick = () => {
      // Catch up on late timers by wall clock, so frames leave at real time on a busy machine.
      const due = Math.floor((performance.now() - started) / FRAME_MS) + 1;
      while (frame < due) {
        const from = frame * FRAME_SAMPLES;
        if (from + FRAME_SAMPLES > this.samples.length) {
          this.stop();
          return;
        }
        frame += 1;
        onFrame(this.samples.slice(from, from + FRAME_SAMPLES));
      }
      this.timer = setTimeout(tick, started + frame * FRAME_MS - performance.now());
    };
    tick();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** --speaker-file: what the dispatcher would hear, appended to a WAV file (valid at every moment). */
export class WavFileSpeaker implements Speaker {
  readonly name: string;
  private readonly writer: WavWriter;

  constructor(file: string) {
    this.name = `file:${file}`;
    this.writer = new WavWriter(file);
  }

  write(pcm: Int16Array): void {
    this.writer.write(pcm);
  }

  close(): void {
    this.writer.close();
  }
}
