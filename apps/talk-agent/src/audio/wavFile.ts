import fs from 'node:fs';
import { SAMPLE_RATE } from './pcmFormat.js';

const HEADER_BYTES = 44;

/** Reads a PCM WAV file (8/16-bit, any rate, mono or stereo) as 48 kHz mono s16 samples. */
export function readWav(file: string): Int16Array {
  const data = fs.readFileSync(file);
  if (data.toString('ascii', 0, 4) !== 'RIFF' || data.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error(`${file}: not a WAV file`);
  }
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= data.length) {
    const id = data.toString('ascii', offset, offset + 4);
    // A writer that never finished leaves 0 or 0xffffffff as the data size: read to the end then.
    let size = data.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const tag = data.readUInt16LE(body);
      format = {
        channels: data.readUInt16LE(body + 2),
        rate: data.readUInt32LE(body + 4),
        bits: data.readUInt16LE(body + 14),
      };
      if (tag !== 1 && tag !== 0xfffe) throw new Error(`${file}: only PCM WAV is supported`);
      if (format.bits !== 16 && format.bits !== 8) throw new Error(`${file}: only 8 or 16-bit samples are supported`);
    } else if (id === 'data') {
      if (!format) throw new Error(`${file}: data before fmt`);
      if (size === 0 || body + size > data.length) size = data.length - body;
      return toMono48k(data.subarray(body, body + size), format);
    }
    offset = body + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

function toMono48k(bytes: Buffer, format: { channels: number; rate: number; bits: number }): Int16Array {
  const width = format.bits / 8;
  const frames = Math.floor(bytes.length / (width * format.channels));
  const mono = new Float64Array(frames);
  for (let i = 0; i < frames; i += 1) {
    let sum = 0;
    for (let c = 0; c < format.channels; c += 1) {
      const at = (i * format.channels + c) * width;
      sum += width === 2 ? bytes.readInt16LE(at) : (bytes[at]! - 128) << 8;
    }
    mono[i] = sum / format.channels;
  }
  if (format.rate === SAMPLE_RATE) return Int16Array.from(mono, (v) => Math.round(v));
  // Linear interpolation: enough for speech from espeak-ng (22.05 kHz) or a 16 kHz recording.
  const out = new Int16Array(Math.floor((frames * SAMPLE_RATE) / format.rate));
  const step = format.rate / SAMPLE_RATE;
  for (let i = 0; i < out.length; i += 1) {
    const x = i * step;
    const j = Math.floor(x);
    const a = mono[j] ?? 0;
    const b = mono[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return out;
}

function header(dataBytes: number): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(SAMPLE_RATE, 24);
  h.writeUInt32LE(SAMPLE_RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** Writes 48 kHz mono s16 WAV as it goes; the sizes are patched after every write, so the file is always valid. */
export class WavWriter {
  private readonly fd: number;
  private dataBytes = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
    fs.writeSync(this.fd, header(0));
  }

  write(pcm: Int16Array): void {
    const bytes = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    fs.writeSync(this.fd, bytes, 0, bytes.length, HEADER_BYTES + this.dataBytes);
    this.dataBytes += bytes.length;
    fs.writeSync(this.fd, header(this.dataBytes), 0, HEADER_BYTES, 0);
  }

  get samples(): number {
    return this.dataBytes / 2;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Writes a whole WAV file at once (tests and tools). */
export function writeWav(file: string, pcm: Int16Array): void {
  fs.writeFileSync(
    file,
    Buffer.concat([header(pcm.byteLength), Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength)]),
  );
}
