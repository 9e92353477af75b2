/** Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0, no final xor (RFC 3533 6). */

const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n << 24;
  for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  TABLE[n] = c >>> 0;
}

/** Continues `crc` over bytes[start, end). */
export function oggCrc(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  for (let i = start; i < end; i++)
    crc = ((crc << 8) ^ (TABLE[((crc >>> 24) ^ (bytes[i] as number)) & 0xff] as number)) >>> 0;
  return crc;
}
