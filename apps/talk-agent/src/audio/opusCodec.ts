import OpusScript from 'opusscript';
import { FRAME_SAMPLES, SAMPLE_RATE } from './pcmFormat.js';

// opusscript carries libopus as WASM (the bundle inlines it: scripts/buildTalkAgent.mjs) and as asm.js,
// which is far too slow for real time (bench/talkAgent.ts).
const useWasm = true;

/** 24 kb/s: clear speech at a fraction of the relay's limits; VoIP mode tunes Opus for voice. */
const BITRATE = 24_000;

export class OpusEncoder {
  private readonly opus = new OpusScript(SAMPLE_RATE, 1, OpusScript.Application.VOIP, { wasm: useWasm });

  constructor() {
    this.opus.setBitrate(BITRATE);
  }

  /** One 20 ms frame (960 samples) -> one Opus packet. */
  encode(pcm: Int16Array): Buffer {
    return this.opus.encode(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), FRAME_SAMPLES);
  }

  delete(): void {
    this.opus.delete();
  }
}

export class OpusDecoder {
  private readonly opus = new OpusScript(SAMPLE_RATE, 1, OpusScript.Application.VOIP, { wasm: useWasm });

  decode(packet: Buffer): Int16Array {
    const pcm = this.opus.decode(packet);
    // Copy out of the codec's heap: the next decode overwrites it.
    return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
  }

  delete(): void {
    this.opus.delete();
  }
}
