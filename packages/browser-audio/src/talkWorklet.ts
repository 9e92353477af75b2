/**
 * The talk audio worklets (run on the audio rendering thread; loaded by BrowserAudio.ts through
 * Vite's `?worker&url`, which bundles this module and its imports into one file).
 *
 * `talk-capture` cuts the microphone into 20 ms frames (FrameCutter) and posts each with its level.
 * `talk-playback` is the jitter buffer: one JitterRing per heard stream, mixed (a seat monitors
 * several channels at once, a field worker hears a channel and a call).
 */
import { FrameCutter } from './FrameCutter';
import { JitterRing } from './JitterRing';

// The AudioWorkletGlobalScope's names, declared here because the DOM library does not have them.
declare function registerProcessor(name: string, processor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

class CaptureProcessor extends AudioWorkletProcessor {
  private sending = false;
  // Transferred, not copied, to the main thread.
  private readonly cutter = new FrameCutter((samples, rms) =>
    this.port.postMessage({ samples, rms }, [samples.buffer]),
  );

  constructor() {
    super();
    this.port.onmessage = (message: MessageEvent<{ sending: boolean; stop?: number }>) => {
      this.sending = message.data.sending;
      this.cutter.reset();
      // Posted after every frame of the talk: the main thread knows it has them all.
      if (message.data.stop !== undefined) this.port.postMessage({ drained: message.data.stop });
    };
  }

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    if (this.sending && input) this.cutter.push(input);
    return true;
  }
}

class PlaybackProcessor extends AudioWorkletProcessor {
  private readonly rings = new Map<string, JitterRing>();

  constructor() {
    super();
    this.port.onmessage = (message: MessageEvent<{ stream: string; samples: Float32Array }>) => {
      const { stream, samples } = message.data;
      let ring = this.rings.get(stream);
      if (!ring) {
        ring = new JitterRing();
        this.rings.set(stream, ring);
      }
      ring.push(samples);
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const output = outputs[0]?.[0];
    if (!output) return true;
    output.fill(0);
    for (const [stream, ring] of this.rings) {
      ring.mixInto(output);
      // A burst played out: its ring goes (one per heard stream at a time, not one per stream ever heard).
      if (!ring.playing && ring.size === 0) this.rings.delete(stream);
    }
    for (const channel of outputs[0]!.slice(1)) channel.set(output);
    return true;
  }
}

registerProcessor('talk-capture', CaptureProcessor);
registerProcessor('talk-playback', PlaybackProcessor);
