import { describe, expect, it } from 'vitest';
import { releaseHeap } from '../src/core/releaseHeap.js';

/** Garbage that has lived through scavenges (so it sits in the old generation): ~40 MiB of objects. */
async function oldGarbage(): Promise<number> {
  let kept: { id: number; name: string; tags: number[] }[] = [];
  for (let i = 0; i < 300_000; i++) kept.push({ id: i, name: `user ${i}`, tags: [i, i + 1, i + 2] });
  // A few turns of the loop with allocation in between, so scavenges promote what is kept.
  for (let turn = 0; turn < 5; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    kept = kept.map((k) => k);
  }
  // Dead from here on: the caller's collection is what gives it back.
  return kept.length;
}

describe('releaseHeap', () => {
  it('runs a full collection that gives back old-generation garbage', async () => {
    expect(await oldGarbage()).toBe(300_000);
    const released = await releaseHeap();
    expect(released, 'this runtime offers no collector').toBeDefined();
    const { beforeMiB, afterMiB, ms } = released as NonNullable<typeof released>;
    expect(beforeMiB - afterMiB).toBeGreaterThan(20);
    expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('can run again (the collector is reached once and kept)', async () => {
    expect(await releaseHeap()).toBeDefined();
    expect(await releaseHeap()).toBeDefined();
  });

  it('calls made while one runs share it: one collection for imports answered together', async () => {
    const [first, second] = await Promise.all([releaseHeap(), releaseHeap()]);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(await releaseHeap()).not.toBe(first);
  });
});
