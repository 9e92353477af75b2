import { describe, expect, it } from 'vitest';
import { OggOpusWriter, readOggOpus, speechPackets } from '../src/index.js';
import { opusinfo } from './opusinfo.js';

/** The whole stream a writer makes from `packets`, as a recorder appends it to a file. */
function mux(packets: Buffer[], writer = new OggOpusWriter()): { file: Buffer; pagesPerWrite: number[] } {
  const parts = [writer.header()];
  const pagesPerWrite: number[] = [];
  for (const packet of packets) {
    const out = writer.write(packet);
    pagesPerWrite.push(out.length);
    parts.push(out);
  }
  parts.push(writer.end());
  return { file: Buffer.concat(parts), pagesPerWrite };
}

/** Splits a stream into its pages: [granule, flags, sequence] of each. */
function pages(file: Buffer): { granule: bigint; flags: number; sequence: number; segments: number }[] {
  const result = [];
  for (let at = 0; at < file.length;) {
    const segments = file[at + 26] as number;
    const body = file.subarray(at + 27, at + 27 + segments).reduce((sum, n) => sum + n, 0);
    const granule = file.readBigInt64LE(at + 6);
    result.push({ granule, flags: file[at + 5] as number, sequence: file.readUInt32LE(at + 18), segments });
    at += 27 + segments + body;
  }
  return result;
}

describe('OggOpusWriter', () => {
  const speech = speechPackets('arrived');

  it('writes real speech that opusinfo reads without warnings, with the written duration', () => {
    const writer = new OggOpusWriter({ serial: 7, comments: ['TITLE=Channel 4'] });
    const { file } = mux(speech, writer);
    const info = opusinfo(file);
    expect(info.problems).toEqual([]);
    expect(info.stdout).toContain('Channels: 1');
    expect(info.stdout).toContain('Pre-skip: 312');
    expect(info.stdout).toContain('TITLE=Channel 4');
    expect(info.stdout).toMatch(/Packet duration:\s+20\.0ms \(max\)/);
    expect(writer.durationMs).toBe(speech.length * 20);
    // Playback length leaves out the pre-skip (312 samples = 6.5 ms): within one frame.
    expect(Math.abs(info.playbackMs - writer.durationMs)).toBeLessThanOrEqual(20);
  });

  it('is read back by readOggOpus packet for packet', () => {
    const writer = new OggOpusWriter({ preSkip: 120, inputSampleRate: 16_000, vendor: 'test vendor' });
    const { file } = mux(speech, writer);
    const read = readOggOpus(file);
    expect(read.packets).toEqual(speech);
    expect(read).toMatchObject({
      channels: 1,
      preSkip: 120,
      inputSampleRate: 16_000,
      vendor: 'test vendor',
      comments: [],
    });
    expect(read.granule).toBe(speech.length * 960);
    expect(Math.abs(read.durationMs - writer.durationMs)).toBeLessThanOrEqual(20);
  });

  it('closes a page about once per second of audio, with granules counting every sample', () => {
    const { file, pagesPerWrite } = mux(speech);
    const list = pages(file);
    expect(list.slice(0, 2).map((p) => [p.granule, p.flags, p.sequence])).toEqual([
      [0n, 2, 0],
      [0n, 0, 1],
    ]);
    const audio = list.slice(2);
    // 50 packets of 20 ms make a second; the page closes when the 51st arrives.
    expect(pagesPerWrite.findIndex((bytes) => bytes > 0)).toBe(50);
    expect(audio.map((p) => p.sequence)).toEqual(audio.map((_, i) => i + 2));
    const full = Math.floor(speech.length / 50);
    expect(audio.slice(0, -1).map((p) => p.granule)).toEqual(
      Array.from({ length: audio.length - 1 }, (_, i) => BigInt((i + 1) * 48_000)),
    );
    expect(audio.length).toBe(speech.length % 50 === 0 ? full : full + 1);
    expect(audio.at(-1)).toMatchObject({ granule: BigInt(speech.length * 960), flags: 4 });
    expect(audio.slice(0, -1).every((p) => p.flags === 0)).toBe(true);
  });

  it('laces packets of 255 bytes and more, and starts a new page when 255 lacing values are used', () => {
    // 255 bytes need two lacing values (255, 0); 1276 (the largest 20 ms frame) six.
    const sizes = [1276, 255, 1276, 1276, 1276, 1276];
    const packets = Array.from({ length: 120 }, (_, i) => {
      const size = sizes[i % sizes.length] as number;
      const packet = Buffer.alloc(size, i);
      packet[0] = 0xf8; // CELT fullband 20 ms, one frame
      return packet;
    });
    const { file } = mux(packets);
    expect(readOggOpus(file).packets).toEqual(packets);
    // 5.3 lacing values a packet: 255 of them fill a page before a second of audio (50 packets) does.
    const audio = pages(file).slice(2, -1);
    expect(audio.length).toBeGreaterThan(0);
    for (const [i, page] of audio.entries()) {
      expect(page.segments).toBeLessThanOrEqual(255);
      expect(page.segments).toBeGreaterThan(240);
      expect(page.granule - (audio[i - 1]?.granule ?? 0n)).toBeLessThan(48_000n);
    }
    expect(opusinfo(file).problems).toEqual([]);
  });

  it('counts the samples of each packet: 40 ms and 60 ms packets', () => {
    const writer = new OggOpusWriter();
    const packets = speech.slice(0, 10);
    writer.header();
    packets.forEach((packet, i) => writer.write(packet, i % 2 ? 1920 : 2880));
    writer.end();
    expect(writer.durationMs).toBe(5 * 40 + 5 * 60);
  });

  it('ends an empty stream with one empty end-of-stream page', () => {
    const writer = new OggOpusWriter();
    const file = Buffer.concat([writer.header(), writer.end()]);
    expect(readOggOpus(file)).toMatchObject({ packets: [], granule: 0, durationMs: 0 });
    expect(pages(file).at(-1)).toMatchObject({ flags: 4, granule: 0n });
  });

  it('returns the same header every time and refuses what is not a valid stream', () => {
    const writer = new OggOpusWriter();
    expect(writer.header()).toBe(writer.header());
    expect(() => writer.write(new Uint8Array(0))).toThrow(RangeError);
    expect(() => writer.write(new Uint8Array(65_025))).toThrow(RangeError);
    expect(() => writer.write(speech[0] as Buffer, 0)).toThrow(RangeError);
    expect(() => writer.write(speech[0] as Buffer, 961.5)).toThrow(RangeError);
    expect(() => writer.write(speech[0] as Buffer, 5761)).toThrow(RangeError);
    expect(writer.durationMs).toBe(0);
    writer.end();
    expect(() => writer.write(speech[0] as Buffer)).toThrow(/after end/);
    expect(() => writer.end()).toThrow(/twice/);
    expect(() => new OggOpusWriter({ serial: -1 })).toThrow(RangeError);
    expect(() => new OggOpusWriter({ serial: 2 ** 32 })).toThrow(RangeError);
    expect(() => new OggOpusWriter({ preSkip: 65_536 })).toThrow(RangeError);
    expect(() => new OggOpusWriter({ inputSampleRate: 1.5 })).toThrow(RangeError);
    expect(() => new OggOpusWriter({ comments: ['no equals sign'] })).toThrow(RangeError);
    expect(() => new OggOpusWriter({ comments: ['=value'] })).toThrow(RangeError);
  });

  it('copies each packet, so a caller may reuse its buffer', () => {
    const writer = new OggOpusWriter();
    const scratch = Buffer.alloc(40, 1);
    scratch[0] = 0xf8;
    const parts = [writer.header(), writer.write(scratch)];
    scratch.fill(9, 1);
    parts.push(writer.write(scratch), writer.end());
    const [first, second] = readOggOpus(Buffer.concat(parts)).packets;
    expect(first?.[1]).toBe(1);
    expect(second?.[1]).toBe(9);
  });
});
