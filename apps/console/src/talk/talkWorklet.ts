/**
 * The talk audio worklets (run on the audio rendering thread; loaded by browserAudio.ts).
 *
 * `talk-capture` cuts the microphone into 20 ms frames (960 samples at 48 kHz) and posts each with its
 * level. `talk-playback` is the jitter buffer: one ring of decoded samples per heard stream, played
 * once it holds PREBUFFER samples (40 ms) and bounded to MAX_BUFFER (300 ms): when a burst arrives
 * faster than it plays, the OLDEST samples are dropped, so latency never grows past the bound.
 * Streams are mixed (a seat monitors several channels at once).
 */

// The AudioWorkletGlobalScope's names, declared here because the DOM library does not have them.
declare const sampleRate: number;
declare function registerProcessor(name: string, processor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

const FRAME = 960;
const PREBUFFER = 1920;
const MAX_BUFFER = 14_400;

class CaptureProcessor extends AudioWorkletProcessor {
  private frame = new Float32Array(FRAME);
  private filled = 0;
  private sending = false;

  constructor() {
    super();
    this.port.onmessage = (message: MessageEvent<{ sending: boolean; stop?: number }>) => {
      this.sending = message.data.sending;
      this.filled = 0;
      // Posted after every frame of the talk: the main thread knows it has them all.
      if (message.data.stop !== undefined) this.port.postMessage({ drained: message.data.stop });
    };
  }

  process(inputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    if (!this.sending || !input) return true;
    let offset = 0;
    while (offset < input.length) {
      const take = Math.min(FRAME - this.filled, input.length - offset);
      this.frame.set(input.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === FRAME) {
        let sum = 0;
        for (let i = 0; i < FRAME; i += 1) sum += this.frame[i]! * this.frame[i]!;
        // Transferred, not copied: a fresh frame buffer per 20 ms is the only allocation here.
        this.port.postMessage({ samples: this.frame, rms: Math.sqrt(sum / FRAME) }, [this.frame.buffer]);
        this.frame = new Float32Array(FRAME);
        this.filled = 0;
      }
    }
    return true;
  }
}

class Ring {
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
}

class PlaybackProcessor extends AudioWorkletProcessor {
  private readonly rings = new Map<string, Ring>();

  constructor() {
    super();
    this.port.onmessage = (message: MessageEvent<{ stream: string; samples: Float32Array }>) => {
      const { stream, samples } = message.data;
      let ring = this.rings.get(stream);
      if (!ring) {
        ring = new Ring();
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
      if (!ring.playing) continue;
      const take = Math.min(output.length, ring.size);
      for (let i = 0; i < take; i += 1) output[i]! += ring.data[(ring.read + i) % MAX_BUFFER]!;
      ring.read = (ring.read + take) % MAX_BUFFER;
      ring.size -= take;
      // Ran dry: wait for a new prebuffer before playing this stream again (a new burst).
      if (ring.size === 0) {
        ring.playing = false;
        if (take === 0) this.rings.delete(stream);
      }
    }
    for (const channel of outputs[0]!.slice(1)) channel.set(output);
    return true;
  }
}

void sampleRate;
registerProcessor('talk-capture', CaptureProcessor);
registerProcessor('talk-playback', PlaybackProcessor);
