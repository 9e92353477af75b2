import { OggOpusWriter } from '@intercom/media';
import { deflateSync } from 'node:zlib';

/** Small, well-formed files for the upload and recording tests, built byte by byte. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of PNG chunks (reflected, polynomial 0xEDB88320). */
function pngCrc(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(pngCrc(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A valid RGB PNG of the given size (one flat colour). */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** A baseline JPEG header: SOI, APP0 (JFIF), DQT, SOF0 with the size, EOI. */
export function jpeg(width: number, height: number): Buffer {
  const sof = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\u0000\u0001\u0001\u0000\u0000\u0001\u0000\u0001\u0000\u0000', 'latin1')),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, sof),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function riff(chunk: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP'), Buffer.from(chunk, 'latin1'), Buffer.alloc(4), data]);
  body.writeUInt32LE(data.length, 8);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** A lossless WebP header (VP8L). */
export function webpLossless(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return riff('VP8L', data);
}

/** A lossy WebP header (VP8): frame tag, start code, 14-bit sizes. */
export function webpLossy(width: number, height: number): Buffer {
  const data = Buffer.alloc(20);
  data.set([0x9d, 0x01, 0x2a], 3);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return riff('VP8 ', data);
}

/** An extended WebP header (VP8X): canvas size minus one in 24 bits. */
export function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', data);
}

/**
 * An Ogg Opus stream of `packets` silent 20 ms frames (CELT fullband TOC, `packetBytes` each),
 * muxed by the media package as the talk server does it.
 */
export function oggOpus(packets = 50, packetBytes = 60): Buffer {
  const writer = new OggOpusWriter({ serial: 0x1234abcd, vendor: 'intercom-test' });
  const packet = Buffer.alloc(packetBytes, 0);
  packet[0] = 0xf8; // TOC: CELT fullband 20 ms, one frame
  const parts = [writer.header()];
  for (let i = 0; i < packets; i++) parts.push(writer.write(packet));
  parts.push(writer.end());
  return Buffer.concat(parts);
}
