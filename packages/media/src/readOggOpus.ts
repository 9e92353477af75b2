import { OggError } from './OggError.js';
import { oggCrc } from './oggCrc.js';
import { BOS, CONTINUED, EOS, PAGE_HEADER } from './oggPage.js';

export interface OggOpusFile {
  channels: number;
  preSkip: number;
  inputSampleRate: number;
  vendor: string;
  comments: string[];
  /** The audio packets, in order (the header packets left out). */
  packets: Buffer[];
  /** Granule position of the last page: samples at 48 kHz, pre-skip included. */
  granule: number;
  /** Playback length: (granule - preSkip) / 48. */
  durationMs: number;
}

interface Page {
  flags: number;
  granule: number;
  serial: number;
  sequence: number;
  lacing: Uint8Array;
  body: Buffer;
}

/** Parses a whole Ogg Opus file; checks capture patterns, page CRCs, OpusHead/OpusTags; throws OggError. */
export function readOggOpus(data: Uint8Array): OggOpusFile {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length === 0) throw new OggError('truncated', 'empty file');
  const packets: Buffer[] = [];
  let serial: number | undefined;
  let sequence = -1;
  let granule = 0;
  let ended = false;
  let partial: Buffer[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const page = readPage(bytes, offset);
    offset += PAGE_HEADER + page.lacing.length + page.body.length;
    if (serial === undefined) {
      if (!(page.flags & BOS)) throw new OggError('not_opus', 'the first page does not begin a stream');
      serial = page.serial;
    } else if (page.serial !== serial) continue; // another logical stream: not ours
    if (ended) throw new OggError('bad_header', `page ${page.sequence} after the end of the stream`);
    if (page.sequence !== sequence + 1) throw new OggError('truncated', `page ${sequence + 1} is missing`);
    sequence = page.sequence;
    if (!(page.flags & CONTINUED) && partial.length > 0)
      throw new OggError('truncated', `page ${page.sequence} drops an unfinished packet`);
    let at = 0;
    for (const size of page.lacing) {
      partial.push(page.body.subarray(at, at + size));
      at += size;
      if (size < 255) {
        packets.push(partial.length === 1 ? (partial[0] as Buffer) : Buffer.concat(partial));
        partial = [];
      }
    }
    if (page.granule !== -1) granule = page.granule;
    ended = (page.flags & EOS) !== 0;
  }
  if (!ended || partial.length > 0) throw new OggError('truncated', 'the stream has no end-of-stream page');
  return opusFile(packets, granule);
}

function readPage(bytes: Buffer, offset: number): Page {
  if (bytes.length - offset < PAGE_HEADER) throw new OggError('truncated', `page header at byte ${offset} is cut`);
  if (bytes.toString('latin1', offset, offset + 4) !== 'OggS' || bytes[offset + 4] !== 0)
    throw new OggError('bad_capture', `no Ogg page at byte ${offset}`);
  const segments = bytes[offset + 26] as number;
  const lacing = bytes.subarray(offset + PAGE_HEADER, offset + PAGE_HEADER + segments);
  if (lacing.length < segments) throw new OggError('truncated', `lacing at byte ${offset} is cut`);
  const bodyLength = lacing.reduce((sum, n) => sum + n, 0);
  const end = offset + PAGE_HEADER + segments + bodyLength;
  if (end > bytes.length) throw new OggError('truncated', `page at byte ${offset} is cut`);
  const stored = bytes.readUInt32LE(offset + 22);
  let crc = oggCrc(bytes, offset, offset + 22);
  crc = oggCrc(ZERO_CRC, 0, 4, crc);
  crc = oggCrc(bytes, offset + 26, end, crc);
  if (crc !== stored) throw new OggError('bad_crc', `page at byte ${offset} fails its CRC`);
  const low = bytes.readUInt32LE(offset + 6);
  const high = bytes.readInt32LE(offset + 10);
  return {
    flags: bytes[offset + 5] as number,
    granule: high === -1 && low === 0xffff_ffff ? -1 : high * 0x1_0000_0000 + low,
    serial: bytes.readUInt32LE(offset + 14),
    sequence: bytes.readUInt32LE(offset + 18),
    lacing,
    body: bytes.subarray(offset + PAGE_HEADER + segments, end),
  };
}

const ZERO_CRC = new Uint8Array(4);

function opusFile(packets: Buffer[], granule: number): OggOpusFile {
  const [head, tags, ...audio] = packets;
  if (!head || head.length < 8 || head.toString('latin1', 0, 8) !== 'OpusHead')
    throw new OggError('not_opus', 'the stream does not begin with OpusHead');
  if (head.length < 19 || (head[8] as number) >> 4 !== 0) throw new OggError('bad_header', 'OpusHead is malformed');
  const channels = head[9] as number;
  const family = head[18] as number;
  if (
    channels === 0 ||
    (family === 0 && (channels > 2 || head.length !== 19)) ||
    (family !== 0 && head.length < 21 + channels)
  )
    throw new OggError('bad_header', 'OpusHead has a bad channel mapping');
  const preSkip = head.readUInt16LE(10);
  if (!tags || tags.length < 8 || tags.toString('latin1', 0, 8) !== 'OpusTags')
    throw new OggError('bad_header', 'OpusTags does not follow OpusHead');
  const { vendor, comments } = readTags(tags);
  if (granule < 0 || (audio.length > 0 && granule < preSkip))
    throw new OggError('bad_header', `granule position ${granule} is below the pre-skip ${preSkip}`);
  return {
    channels,
    preSkip,
    inputSampleRate: head.readUInt32LE(12),
    vendor,
    comments,
    packets: audio,
    granule,
    durationMs: Math.max(0, granule - preSkip) / 48,
  };
}

function readTags(tags: Buffer): { vendor: string; comments: string[] } {
  let at = 8;
  const text = (): string => {
    if (at + 4 > tags.length) throw new OggError('bad_header', 'OpusTags is cut');
    const length = tags.readUInt32LE(at);
    if (at + 4 + length > tags.length) throw new OggError('bad_header', 'OpusTags is cut');
    at += 4 + length;
    return tags.toString('utf8', at - length, at);
  };
  const vendor = text();
  if (at + 4 > tags.length) throw new OggError('bad_header', 'OpusTags is cut');
  const count = tags.readUInt32LE(at);
  at += 4;
  if (count > tags.length) throw new OggError('bad_header', 'OpusTags is cut');
  const comments = Array.from({ length: count }, text);
  return { vendor, comments };
}
