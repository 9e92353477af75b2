/** Samples (48 kHz) of one frame per TOC configuration (RFC 6716 3.1, table 2). */
const FRAME_SAMPLES = [
  ...[480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920, 2880], // SILK-only NB, MB, WB
  ...[480, 960, 480, 960], // hybrid SWB, FB
  ...[120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960], // CELT-only
];
/** Largest frame (RFC 6716 3.2.1) and longest packet (3.2.5). */
const MAX_FRAME_BYTES = 1275;
const MAX_PACKET_SAMPLES = 5760;

/**
 * Opus TOC helpers used to validate relayed packets: the duration in 48 kHz samples of a packet
 * (frames times frame size), or null when the packet breaks the framing rules of RFC 6716 3.2
 * (R1 to R7: empty, odd code 1 length, frame lengths past the end or over 1275 bytes, bad code 3 count).
 */
export function opusPacketSamples(packet: Uint8Array): number | null {
  if (packet.length < 1) return null;
  const toc = packet[0] as number;
  const frameSamples = FRAME_SAMPLES[toc >> 3] as number;
  const payload = packet.length - 1;
  switch (toc & 3) {
    case 0:
      return payload <= MAX_FRAME_BYTES ? frameSamples : null;
    case 1:
      return payload % 2 === 0 && payload / 2 <= MAX_FRAME_BYTES ? 2 * frameSamples : null;
    case 2: {
      const first = frameLength(packet, 1);
      if (!first) return null;
      const second = packet.length - first.next - first.length;
      return second >= 0 && first.length <= MAX_FRAME_BYTES && second <= MAX_FRAME_BYTES ? 2 * frameSamples : null;
    }
    default:
      return code3Samples(packet, frameSamples);
  }
}

/** A frame length of one or two bytes at `at` (RFC 6716 3.2.1). */
function frameLength(packet: Uint8Array, at: number): { length: number; next: number } | null {
  const first = packet[at];
  if (first === undefined) return null;
  if (first < 252) return { length: first, next: at + 1 };
  const second = packet[at + 1];
  return second === undefined ? null : { length: first + 4 * second, next: at + 2 };
}

/** Code 3: an arbitrary number of frames, CBR or VBR, with optional padding (RFC 6716 3.2.5). */
function code3Samples(packet: Uint8Array, frameSamples: number): number | null {
  const header = packet[1];
  if (header === undefined) return null;
  const frames = header & 0x3f;
  if (frames === 0 || frames * frameSamples > MAX_PACKET_SAMPLES) return null;
  let at = 2;
  let padding = 0;
  if (header & 0x40) {
    for (;;) {
      const byte = packet[at++];
      if (byte === undefined) return null;
      padding += byte === 255 ? 254 : byte;
      if (byte !== 255) break;
    }
  }
  let left = packet.length - at - padding;
  if (header & 0x80) {
    for (let i = 0; i < frames - 1; i++) {
      const size = frameLength(packet, at);
      if (!size || size.length > MAX_FRAME_BYTES) return null;
      left -= size.next - at + size.length;
      at = size.next;
    }
    return left >= 0 && left <= MAX_FRAME_BYTES ? frames * frameSamples : null;
  }
  return left >= 0 && left % frames === 0 && left / frames <= MAX_FRAME_BYTES ? frames * frameSamples : null;
}
