import { describe, expect, it } from 'vitest';
import { opusPacketSamples, speechFixtures, speechPackets } from '../src/index.js';

const toc = (config: number, code: number): number => (config << 3) | code;
const packet = (...bytes: number[]): Uint8Array => Uint8Array.from(bytes);

describe('opusPacketSamples', () => {
  it.each(speechFixtures)('gives 960 samples for every packet of %s', (name) => {
    expect(new Set(speechPackets(name).map(opusPacketSamples))).toEqual(new Set([960]));
  });

  it('reads the frame size of every configuration (RFC 6716 table 2)', () => {
    const expected = [
      480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 1920, 2880, 480, 960, 480, 960, 120, 240, 480, 960, 120,
      240, 480, 960, 120, 240, 480, 960, 120, 240, 480, 960,
    ];
    expect(Array.from({ length: 32 }, (_, config) => opusPacketSamples(packet(toc(config, 0), 1, 2)))).toEqual(
      expected,
    );
  });

  it('counts two frames for codes 1 and 2', () => {
    expect(opusPacketSamples(packet(toc(31, 1), 1, 2))).toBe(1920);
    expect(opusPacketSamples(packet(toc(31, 1)))).toBe(1920); // two empty frames (DTX)
    expect(opusPacketSamples(packet(toc(31, 1), 1))).toBeNull(); // R3: odd payload
    expect(opusPacketSamples(packet(toc(31, 2), 1, 9, 8))).toBe(1920);
    expect(opusPacketSamples(packet(toc(31, 2), 3, 9, 8))).toBeNull(); // first frame past the end
    expect(opusPacketSamples(packet(toc(31, 2)))).toBeNull();
    expect(opusPacketSamples(packet(toc(31, 2), 252))).toBeNull(); // two-byte length cut
  });

  it('counts code 3 frames, CBR and VBR, with padding, up to 120 ms', () => {
    expect(opusPacketSamples(packet(toc(31, 3), 3, 1, 2, 3))).toBe(2880);
    expect(opusPacketSamples(packet(toc(31, 3), 3, 1, 2))).toBeNull(); // R6: not a multiple of 3
    expect(opusPacketSamples(packet(toc(31, 3), 0))).toBeNull(); // R5: no frames
    expect(opusPacketSamples(packet(toc(31, 3), 6))).toBe(5760); // 6 x 20 ms of empty frames
    expect(opusPacketSamples(packet(toc(31, 3), 7))).toBeNull(); // 140 ms
    expect(opusPacketSamples(packet(toc(3, 3), 2))).toBe(5760); // 2 x 60 ms SILK
    expect(opusPacketSamples(packet(toc(3, 3), 3))).toBeNull();
    expect(opusPacketSamples(packet(toc(31, 3), 0x80 | 2, 1, 5, 6, 7))).toBe(1920); // VBR: 1 + 2 bytes
    expect(opusPacketSamples(packet(toc(31, 3), 0x80 | 2, 5, 1))).toBeNull(); // VBR frame past the end
    expect(opusPacketSamples(packet(toc(31, 3), 0x40 | 1, 2, 7, 0, 0))).toBe(960); // 2 bytes of padding
    expect(opusPacketSamples(packet(toc(31, 3), 0x40 | 1, 5, 7))).toBeNull(); // padding past the end
    expect(opusPacketSamples(packet(toc(31, 3), 0x40 | 1))).toBeNull(); // padding length missing
    expect(opusPacketSamples(packet(toc(31, 3)))).toBeNull();
  });

  it('refuses empty packets and frames over 1275 bytes', () => {
    expect(opusPacketSamples(new Uint8Array(0))).toBeNull();
    const big = new Uint8Array(1277);
    big[0] = toc(31, 0);
    expect(opusPacketSamples(big)).toBeNull();
    expect(opusPacketSamples(big.subarray(0, 1276))).toBe(960);
  });
});
