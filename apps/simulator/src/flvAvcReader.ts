/** One H.264 picture cut from an FLV stream, ready for the terminal protocol. */
export interface FlvAvcUnit {
  /** The tag's decode time, ms from the stream's start. */
  timestampMs: number;
  /** An IDR picture: the SPS and PPS come first in `annexB`. */
  key: boolean;
  /** One access unit in Annex B form (start code `00 00 00 01` before each NAL unit). */
  annexB: Uint8Array;
}

const START_CODE = Uint8Array.of(0, 0, 0, 1);
const FLV_HEADER = 9;
/** Tag header (11 bytes) and the PreviousTagSize (4 bytes) after every tag. */
const TAG_HEADER = 11;
const TAG_TRAILER = 4;
const VIDEO_TAG = 9;
const AVC_CODEC = 7;

/**
 * Reads the FLV stream ffmpeg writes (`-f flv`) as it arrives and hands out each H.264 picture as
 * one Annex B access unit. FLV frames every picture with its length, so a picture is complete the
 * moment its tag is, with no wait for the next one (a raw Annex B stream would only show where a
 * picture ends when the next begins). The parameter sets of the sequence header (AVCDecoderConfigurationRecord)
 * are put in front of every key frame, as docs/terminal-protocol.md asks.
 */
export class FlvAvcReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private headerRead = false;
  private lengthSize = 4;
  private parameterSets: Uint8Array[] = [];

  /** Takes the next bytes of the stream; returns the pictures completed by them. */
  push(chunk: Uint8Array): FlvAvcUnit[] {
    this.buffer = this.buffer.length === 0 ? chunk : concat([this.buffer, chunk]);
    const units: FlvAvcUnit[] = [];
    let at = 0;
    if (!this.headerRead) {
      // 'FLV', version, flags, header size (u32), then PreviousTagSize0 (u32).
      if (this.buffer.length < FLV_HEADER + TAG_TRAILER) return units;
      if (this.buffer[0] !== 0x46 || this.buffer[1] !== 0x4c || this.buffer[2] !== 0x56) {
        throw new Error('not an FLV stream');
      }
      at = view(this.buffer).getUint32(5) + TAG_TRAILER;
      this.headerRead = true;
    }
    while (this.buffer.length - at >= TAG_HEADER) {
      const type = (this.buffer[at] as number) & 0x1f;
      const size = u24(this.buffer, at + 1);
      const end = at + TAG_HEADER + size + TAG_TRAILER;
      if (this.buffer.length < end) break;
      if (type === VIDEO_TAG) {
        const timestampMs = u24(this.buffer, at + 4) + (this.buffer[at + 7] as number) * 2 ** 24;
        const unit = this.videoTag(this.buffer.subarray(at + TAG_HEADER, at + TAG_HEADER + size), timestampMs);
        if (unit) units.push(unit);
      }
      at = end;
    }
    this.buffer = this.buffer.subarray(at);
    return units;
  }

  private videoTag(data: Uint8Array, timestampMs: number): FlvAvcUnit | undefined {
    if (data.length < 5 || ((data[0] as number) & 0x0f) !== AVC_CODEC) return undefined;
    const key = (data[0] as number) >> 4 === 1;
    const packetType = data[1];
    if (packetType === 0) {
      this.configuration(data.subarray(5));
      return undefined;
    }
    if (packetType !== 1) return undefined;
    const nals: Uint8Array[] = [];
    for (let i = 5; i + this.lengthSize <= data.length;) {
      let length = 0;
      for (let b = 0; b < this.lengthSize; b += 1) length = length * 256 + (data[i + b] as number);
      i += this.lengthSize;
      nals.push(data.subarray(i, Math.min(data.length, i + length)));
      i += length;
    }
    const types = new Set(nals.map((nal) => (nal[0] as number) & 0x1f));
    const inBand = types.has(7) && types.has(8);
    const parts = key && !inBand ? [...this.parameterSets, ...nals] : nals;
    return { timestampMs, key, annexB: concat(parts.flatMap((nal) => [START_CODE, nal])) };
  }

  /** The AVCDecoderConfigurationRecord: NAL length size, then the SPS and PPS. */
  private configuration(record: Uint8Array): void {
    if (record.length < 7) return;
    this.lengthSize = ((record[4] as number) & 0x03) + 1;
    const sets: Uint8Array[] = [];
    let i = 5;
    for (const countMask of [0x1f, 0xff]) {
      const count = (record[i] as number) & countMask;
      i += 1;
      for (let n = 0; n < count && i + 2 <= record.length; n += 1) {
        const length = ((record[i] as number) << 8) | (record[i + 1] as number);
        sets.push(record.slice(i + 2, i + 2 + length));
        i += 2 + length;
      }
    }
    this.parameterSets = sets;
  }
}

function u24(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) << 16) | ((bytes[at + 1] as number) << 8) | (bytes[at + 2] as number);
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
