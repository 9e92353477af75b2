import { describe, expect, it } from 'vitest';
import { JITTER_MAX_FRAMES, JITTER_TARGET_FRAMES, JitterBuffer } from '../src/audio/jitterBuffer.js';

const packet = (n: number) => Buffer.from([n & 0xff]);
const drain = (buffer: JitterBuffer, ticks: number) => Array.from({ length: ticks }, () => buffer.pop());

describe('JitterBuffer', () => {
  it('waits for the target before playing, then plays in seq order across the u16 wrap', () => {
    const buffer = new JitterBuffer();
    buffer.push(65_534, packet(1));
    expect(buffer.pop()).toBeUndefined();
    buffer.push(0, packet(3)); // out of order
    buffer.push(65_535, packet(2));
    expect(JITTER_TARGET_FRAMES).toBe(3);
    expect(drain(buffer, 3).map((p) => p?.[0])).toEqual([1, 2, 3]);
    expect(buffer.pop()).toBeUndefined();
  });

  it('gives null for a lost packet and drops a late or duplicate one', () => {
    const buffer = new JitterBuffer();
    for (const seq of [10, 12, 13]) buffer.push(seq, packet(seq));
    expect(drain(buffer, 2)).toEqual([packet(10), null]);
    buffer.push(11, packet(11)); // too late: 11 was already played as lost
    buffer.push(12, packet(99)); // replaces nothing played; 12 is still waiting
    expect(buffer.dropped).toBe(1);
    expect(buffer.pop()?.[0]).toBe(99);
  });

  it('never holds more than its bound, and drains back towards the target after a burst', () => {
    const buffer = new JitterBuffer();
    for (let seq = 0; seq < 25; seq += 1) buffer.push(seq, packet(seq));
    expect(buffer.size).toBe(JITTER_MAX_FRAMES);
    const first = buffer.pop();
    // The oldest were dropped on arrival, and the next tick skipped down to 2 × target.
    expect(first?.[0]).toBe(25 - 2 * JITTER_TARGET_FRAMES);
    expect(buffer.size).toBe(2 * JITTER_TARGET_FRAMES - 1);
    expect(buffer.dropped).toBe(25 - 2 * JITTER_TARGET_FRAMES);
  });

  it('starts again when a new burst begins its seq anew', () => {
    const buffer = new JitterBuffer();
    for (let seq = 500; seq < 503; seq += 1) buffer.push(seq, packet(seq));
    drain(buffer, 4);
    for (let seq = 0; seq < 3; seq += 1) buffer.push(seq, packet(seq));
    expect(drain(buffer, 3).map((p) => p?.[0])).toEqual([0, 1, 2]);
    expect(buffer.dropped).toBe(0);
  });

  it('plays the last packets of a burst once the talker is quiet, even fewer than the target', () => {
    const buffer = new JitterBuffer();
    for (let seq = 0; seq < 3; seq += 1) buffer.push(seq, packet(seq));
    drain(buffer, 4); // a stall: the buffer ran dry and waits for the target again
    buffer.push(3, packet(3));
    buffer.push(4, packet(4));
    expect(buffer.pop()).toBeUndefined();
    expect([buffer.pop(true), buffer.pop(true), buffer.pop(true)].map((p) => p?.[0])).toEqual([3, 4, undefined]);
    expect(buffer.size).toBe(0);
    expect(buffer.dropped).toBe(0);
  });
});
