import { oggCrc } from './oggCrc.js';

/** Page header flags (RFC 3533 6). */
export const CONTINUED = 0x01;
export const BOS = 0x02;
export const EOS = 0x04;

/** Bytes of the fixed page header before the lacing values. */
export const PAGE_HEADER = 27;
/** Largest packet one page can carry whole (255 lacing values). */
export const MAX_PAGE_PACKET = 255 * 255 - 1;

export interface PageFields {
  flags: number;
  /** -1 when no packet ends on the page. */
  granule: number;
  serial: number;
  sequence: number;
}

/** Writes the lacing values of a packet of `length` bytes at `at`; returns the next free index. */
export function lace(lacing: Uint8Array, at: number, length: number): number {
  let left = length;
  while (left >= 255) {
    lacing[at++] = 255;
    left -= 255;
  }
  lacing[at++] = left;
  return at;
}

/** Lacing values a packet of `length` bytes needs. */
export function lacingCount(length: number): number {
  return Math.floor(length / 255) + 1;
}

/** One page in a fresh buffer: header, lacing[0, segments), body[0, bodyLength), CRC filled in. */
export function buildPage(
  fields: PageFields,
  lacing: Uint8Array,
  segments: number,
  body: Uint8Array,
  bodyLength: number,
): Buffer {
  const page = Buffer.allocUnsafe(PAGE_HEADER + segments + bodyLength);
  page.write('OggS', 0, 'latin1');
  page[4] = 0; // stream structure version
  page[5] = fields.flags;
  if (fields.granule < 0) page.fill(0xff, 6, 14);
  else {
    // Two 32-bit halves instead of a BigInt: no allocation, exact up to 2^53 samples.
    page.writeUInt32LE(fields.granule % 0x1_0000_0000, 6);
    page.writeUInt32LE(Math.floor(fields.granule / 0x1_0000_0000), 10);
  }
  page.writeUInt32LE(fields.serial >>> 0, 14);
  page.writeUInt32LE(fields.sequence >>> 0, 18);
  page.writeUInt32LE(0, 22);
  page[26] = segments;
  page.set(lacing.subarray(0, segments), PAGE_HEADER);
  page.set(body.subarray(0, bodyLength), PAGE_HEADER + segments);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** A page holding exactly one whole packet (the header packets). */
export function singlePacketPage(fields: PageFields, packet: Uint8Array): Buffer {
  if (packet.length > MAX_PAGE_PACKET) throw new RangeError(`packet of ${packet.length} bytes does not fit one page`);
  const lacing = new Uint8Array(255);
  const segments = lace(lacing, 0, packet.length);
  return buildPage(fields, lacing, segments, packet, packet.length);
}
