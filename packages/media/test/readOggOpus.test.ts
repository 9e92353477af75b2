import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OggError, OggOpusWriter, readOggOpus, speechFixtures, speechPackets } from '../src/index.js';
import { opusinfo } from './opusinfo.js';

const fixture = (name: string): Buffer => fs.readFileSync(new URL(`../fixtures/${name}.opus`, import.meta.url));

function codeOf(bytes: Uint8Array): string {
  try {
    readOggOpus(bytes);
  } catch (error) {
    if (error instanceof OggError) return error.code;
    throw error;
  }
  return 'read';
}

/** Our own small stream: header pages then one second and a bit of speech. */
function stream(): Buffer {
  const writer = new OggOpusWriter({ serial: 99 });
  const parts = [writer.header(), ...speechPackets('unit-three').map((p) => writer.write(p)), writer.end()];
  return Buffer.concat(parts);
}

describe('readOggOpus', () => {
  it.each(speechFixtures)('reads the opusenc fixture %s with the duration opusinfo prints', (name) => {
    const file = fixture(name);
    const read = readOggOpus(file);
    expect(read).toMatchObject({ channels: 1, preSkip: 312, inputSampleRate: 48_000 });
    expect(read.vendor).toMatch(/^libopus/);
    expect(read.packets.length).toBeGreaterThan(50);
    // opusinfo prints whole milliseconds; opusenc trims the end, so the granule is under packets * 960.
    expect(Math.abs(read.durationMs - opusinfo(file).playbackMs)).toBeLessThan(1);
    expect(read.granule).toBeLessThanOrEqual(read.packets.length * 960);
    expect(read.granule).toBeGreaterThan((read.packets.length - 1) * 960);
  });

  it.each(speechFixtures)('round-trips the packets of %s through the writer within one frame', (name) => {
    const original = readOggOpus(fixture(name));
    const writer = new OggOpusWriter({ preSkip: original.preSkip });
    const parts = [writer.header(), ...original.packets.map((p) => writer.write(p)), writer.end()];
    const copy = readOggOpus(Buffer.concat(parts));
    expect(copy.packets).toEqual(original.packets);
    expect(Math.abs(copy.durationMs - original.durationMs)).toBeLessThanOrEqual(20);
    expect(speechPackets(name)).toEqual(original.packets);
  });

  it('refuses an empty file and every cut of a file as truncated', () => {
    const file = stream();
    expect(codeOf(new Uint8Array(0))).toBe('truncated');
    for (const length of [1, 26, 27, 40, 100, file.length - 1, file.length - 200]) {
      expect(codeOf(file.subarray(0, length)), `cut at ${length}`).toBe('truncated');
    }
    expect(codeOf(file)).toBe('read');
  });

  it('refuses a missing page as truncated', () => {
    const file = stream();
    const pageStarts = [...file.toString('latin1').matchAll(/OggS/g)].map((m) => m.index);
    const [, , third, fourth] = pageStarts;
    const without = Buffer.concat([file.subarray(0, third), file.subarray(fourth)]);
    expect(codeOf(without)).toBe('truncated');
  });

  it('refuses a wrong capture pattern and a wrong stream version', () => {
    const file = stream();
    const first = Buffer.from(file);
    first.write('Oggs', 0, 'latin1');
    expect(codeOf(first)).toBe('bad_capture');
    const later = Buffer.from(file);
    const second = later.indexOf('OggS', 4);
    later[second + 1] = 0x47; // "OGgS"
    expect(codeOf(later)).toBe('bad_capture');
    const version = Buffer.from(file);
    version[4] = 1;
    expect(codeOf(version)).toBe('bad_capture');
    expect(codeOf(Buffer.from('RIFF....WAVEfmt and some more bytes to pass the header'))).toBe('bad_capture');
  });

  it('refuses any flipped byte in a page as a CRC failure', () => {
    const file = stream();
    for (const at of [30, 60, file.length - 1, Math.floor(file.length / 2)]) {
      const copy = Buffer.from(file);
      copy[at] = (copy[at] as number) ^ 0x10;
      expect(codeOf(copy), `byte ${at}`).toBe('bad_crc');
    }
    const crc = Buffer.from(file);
    crc[22] = (crc[22] as number) ^ 1;
    expect(codeOf(crc)).toBe('bad_crc');
  });

  it('refuses an Ogg stream that is not Opus', () => {
    // An Ogg Vorbis-like first packet, with a valid page around it.
    const writer = new OggOpusWriter({ serial: 5 });
    const header = Buffer.from(writer.header());
    const vorbis = Buffer.from(header);
    vorbis.write('\u0001vorbis\u0000', 28, 'latin1');
    expect(codeOf(Buffer.concat([resealed(vorbis), new OggOpusWriter({ serial: 5 }).end()]))).toBe('not_opus');
  });

  it('refuses a bad OpusHead or OpusTags', () => {
    const header = Buffer.from(new OggOpusWriter({ serial: 5 }).header());
    const cases: [string, (b: Buffer) => void][] = [
      ['version 16', (b) => (b[28 + 8] = 0x10)],
      ['no channels', (b) => (b[28 + 9] = 0)],
      ['3 channels in family 0', (b) => (b[28 + 9] = 3)],
      ['no OpusTags', (b) => b.write('OpusTagz', 28 + 19 + 28, 'latin1')],
      ['vendor longer than the packet', (b) => b.writeUInt32LE(1000, 28 + 19 + 28 + 8)],
    ];
    for (const [label, change] of cases) {
      const copy = Buffer.from(header);
      change(copy);
      expect(codeOf(Buffer.concat([resealed(copy), new OggOpusWriter({ serial: 5 }).end()])), label).toBe('bad_header');
    }
  });

  it('copes with any bytes: only OggError, never another exception', () => {
    const file = stream();
    let seed = 12345;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 300; i++) {
      const copy = Buffer.from(file.subarray(0, 1 + Math.floor(random() * file.length)));
      copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      expect(['truncated', 'bad_capture', 'bad_crc', 'not_opus', 'bad_header', 'read']).toContain(codeOf(copy));
    }
  });
});

/** Recomputes the CRC of every page, so a test can change content behind a valid page. */
function resealed(file: Buffer): Buffer {
  const copy = Buffer.from(file);
  for (let at = 0; at < copy.length;) {
    const segments = copy[at + 26] as number;
    const body = copy.subarray(at + 27, at + 27 + segments).reduce((sum, n) => sum + n, 0);
    const end = at + 27 + segments + body;
    copy.writeUInt32LE(0, at + 22);
    copy.writeUInt32LE(crc(copy.subarray(at, end)), at + 22);
    at = end;
  }
  return copy;
}

/** An independent bitwise Ogg CRC-32 (polynomial 0x04C11DB7), not the table the package uses. */
function crc(bytes: Uint8Array): number {
  let value = 0;
  for (const byte of bytes) {
    value ^= byte << 24;
    for (let k = 0; k < 8; k++) value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
    value >>>= 0;
  }
  return value;
}
