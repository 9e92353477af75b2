import { afterEach, describe, expect, it } from 'vitest';
import type { Speaker } from '../src/audio/audioBackend.js';
import { OpusEncoder } from '../src/audio/opusCodec.js';
import { FRAME_SAMPLES } from '../src/audio/pcmFormat.js';
import { Playout } from '../src/audio/playout.js';

/** A speaker that keeps what it is given. */
class RecordingSpeaker implements Speaker {
  readonly name = 'recording';
  readonly frames: Int16Array[] = [];
  write(pcm: Int16Array): void {
    this.frames.push(pcm);
  }
  close(): void {}
}

const encoder = new OpusEncoder();
const tone = new Int16Array(FRAME_SAMPLES).map((_, i) => Math.round(6000 * Math.sin(i / 8)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let playout: Playout | undefined;
afterEach(() => playout?.close());

describe('Playout', () => {
  it('plays a burst of two packets, fewer than the jitter target, once the talker is quiet', async () => {
    const speaker = new RecordingSpeaker();
    playout = new Playout(speaker);
    playout.push(7, 1, 100, encoder.encode(tone));
    playout.push(7, 1, 101, encoder.encode(tone));
    await expect.poll(() => speaker.frames.length, { timeout: 2_000 }).toBe(2);
    expect(playout.packetsDecoded).toBe(2);
    expect(playout.packetsDropped).toBe(0);
  });

  it('plays the tail that came after a stall drained the buffer, at the pace of speech', async () => {
    const speaker = new RecordingSpeaker();
    playout = new Playout(speaker);
    for (let seq = 0; seq < 3; seq += 1) playout.push(7, 1, seq, encoder.encode(tone));
    await sleep(150); // the three are played and the buffer runs dry: the talker's packets stalled
    expect(speaker.frames.length).toBe(3);
    playout.push(7, 1, 3, encoder.encode(tone));
    playout.push(7, 1, 4, encoder.encode(tone));
    await expect.poll(() => speaker.frames.length, { timeout: 2_000 }).toBe(5);
    expect(playout.packetsDropped).toBe(0);
  });
});
