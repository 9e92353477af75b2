import fs from 'node:fs';

/** The committed test clip (fixtures/make.sh): 320x240, 10 fps, 4 s, an IDR every second. */
export const H264_CLIP = new URL('../fixtures/clip-320x240.h264', import.meta.url);

/**
 * Cuts an Annex B H.264 stream into access units at its access unit delimiters (NAL type 9),
 * each unit keeping its delimiter and start code. A stream without delimiters is one unit.
 */
export function accessUnits(stream: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 3 < stream.length; i += 1) {
    if (stream[i] !== 0 || stream[i + 1] !== 0) continue;
    const long = stream[i + 2] === 0 && stream[i + 3] === 1;
    const short = stream[i + 2] === 1;
    if (!long && !short) continue;
    const header = i + (long ? 4 : 3);
    if (((stream[header] as number) & 0x1f) === 9) starts.push(i);
    i = header - 1;
  }
  if (starts.length === 0) return stream.length > 0 ? [stream] : [];
  return starts.map((start, n) => stream.subarray(start, starts[n + 1] ?? stream.length));
}

let clip: Uint8Array[] | undefined;

/** The clip's access units, read once. */
export function h264ClipUnits(): Uint8Array[] {
  clip ??= accessUnits(fs.readFileSync(H264_CLIP));
  return clip;
}
