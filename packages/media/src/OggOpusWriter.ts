import { BOS, EOS, MAX_PAGE_PACKET, buildPage, lace, lacingCount, singlePacketPage } from './oggPage.js';

export interface OggOpusWriterOptions {
  /** Ogg stream serial number; random when not given. */
  serial?: number;
  /** Samples (48 kHz) the decoder drops at the start: the encoder's look-ahead. Default 312 (libopus). */
  preSkip?: number;
  /** The sample rate the audio was captured at, informational only. Default 48000. */
  inputSampleRate?: number;
  vendor?: string;
  /** User comments, each `NAME=value` (RFC 7845 5.2). */
  comments?: string[];
}

/** Audio pages are closed once they hold this much audio (48 kHz samples): about 1 s of latency to disk. */
const PAGE_SAMPLES = 48_000;
/** Longest Opus packet: 120 ms (RFC 6716 3.2.5). */
const MAX_PACKET_SAMPLES = 5760;
const NO_PAGES = Buffer.alloc(0);

/**
 * Muxes mono Opus packets into an Ogg Opus stream (RFC 7845): `header()` once, `write()` per packet,
 * `end()` at the end; every call returns the bytes to append to the file.
 *
 * Kept between calls (the hot path allocates only the page it returns, about once per second):
 * the page body being filled (`body`, grown by doubling and reused for every page) and its 255 lacing
 * values (`lacing`), plus the header pages, built once.
 */
export class OggOpusWriter {
  private readonly serial: number;
  private readonly headerPages: Buffer;
  private readonly lacing = new Uint8Array(255);
  private body = Buffer.allocUnsafe(4096);
  private bodyLength = 0;
  private segments = 0;
  private pagePackets = 0;
  private pageSamples = 0;
  private samples = 0;
  /** Sequence number of the next audio page; the header pages are 0 and 1. */
  private sequence = 2;
  private ended = false;

  constructor(options: OggOpusWriterOptions = {}) {
    this.serial = checkUint(options.serial ?? Math.floor(Math.random() * 0x1_0000_0000), 0xffff_ffff, 'serial');
    const preSkip = checkUint(options.preSkip ?? 312, 0xffff, 'preSkip');
    const inputSampleRate = checkUint(options.inputSampleRate ?? 48_000, 0xffff_ffff, 'inputSampleRate');
    const head = opusHead(preSkip, inputSampleRate);
    const tags = opusTags(options.vendor ?? 'intercom', options.comments ?? []);
    this.headerPages = Buffer.concat([
      singlePacketPage({ flags: BOS, granule: 0, serial: this.serial, sequence: 0 }, head),
      singlePacketPage({ flags: 0, granule: 0, serial: this.serial, sequence: 1 }, tags),
    ]);
  }

  /** The two header pages (OpusHead, OpusTags), RFC 7845. */
  header(): Buffer {
    return this.headerPages;
  }

  /** Adds one Opus packet (default 960 samples at 48 kHz = 20 ms); returns the pages completed by it (maybe empty). */
  write(packet: Uint8Array, samples = 960): Buffer {
    if (this.ended) throw new Error('OggOpusWriter: write after end');
    if (packet.length < 1 || packet.length > MAX_PAGE_PACKET)
      throw new RangeError(`Opus packet of ${packet.length} bytes (1 to ${MAX_PAGE_PACKET})`);
    if (!Number.isInteger(samples) || samples < 1 || samples > MAX_PACKET_SAMPLES)
      throw new RangeError(`Opus packet of ${samples} samples (1 to ${MAX_PACKET_SAMPLES})`);
    const needed = lacingCount(packet.length);
    const full = this.pageSamples >= PAGE_SAMPLES || this.segments + needed > 255;
    // The page closes when the next packet arrives, so end() always has a packet for the EOS page.
    const pages = this.pagePackets > 0 && full ? this.flush(0) : NO_PAGES;
    this.reserve(packet.length);
    this.body.set(packet, this.bodyLength);
    this.bodyLength += packet.length;
    this.segments = lace(this.lacing, this.segments, packet.length);
    this.pagePackets++;
    this.pageSamples += samples;
    this.samples += samples;
    return pages;
  }

  /** Flushes the last page with the end-of-stream flag and the final granule position. */
  end(): Buffer {
    if (this.ended) throw new Error('OggOpusWriter: end called twice');
    this.ended = true;
    return this.flush(EOS);
  }

  /** Audio written so far, in ms (samples / 48). */
  get durationMs(): number {
    return this.samples / 48;
  }

  private flush(flags: number): Buffer {
    // Granule: every sample of the packets finished so far, pre-skip included (RFC 7845 4).
    // A page always ends a packet here (end() after no packet at all gives an empty page at 0).
    const fields = { flags, granule: this.samples, serial: this.serial, sequence: this.sequence++ };
    const page = buildPage(fields, this.lacing, this.segments, this.body, this.bodyLength);
    this.bodyLength = 0;
    this.segments = 0;
    this.pagePackets = 0;
    this.pageSamples = 0;
    return page;
  }

  private reserve(extra: number): void {
    if (this.bodyLength + extra <= this.body.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.body.length * 2, this.bodyLength + extra));
    this.body.copy(grown, 0, 0, this.bodyLength);
    this.body = grown;
  }
}

function checkUint(value: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw new RangeError(`${name} must be an integer 0 to ${max}`);
  return value;
}

/** OpusHead (RFC 7845 5.1): version 1, mono, channel mapping family 0. */
function opusHead(preSkip: number, inputSampleRate: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(inputSampleRate, 12);
  head.writeInt16LE(0, 16); // output gain
  head[18] = 0;
  return head;
}

/** OpusTags (RFC 7845 5.2): vendor string and `NAME=value` comments, UTF-8 with 32-bit lengths. */
function opusTags(vendor: string, comments: string[]): Buffer {
  for (const comment of comments) {
    if (!/^[\x20-\x3c\x3e-\x7d]+=/.test(comment)) throw new RangeError(`comment "${comment}" is not NAME=value`);
  }
  const strings = [vendor, ...comments].map((s) => Buffer.from(s, 'utf8'));
  const parts: Buffer[] = [Buffer.from('OpusTags', 'latin1')];
  strings.forEach((bytes, index) => {
    if (index === 1) parts.push(uint32(comments.length));
    parts.push(uint32(bytes.length), bytes);
  });
  if (comments.length === 0) parts.push(uint32(0));
  return Buffer.concat(parts);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}
