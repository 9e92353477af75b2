import { describe, expect, it } from 'vitest';
import { emptyPending, mergePending, type Pending } from '../../src/hub/scopeFeed.js';

function pending(parts: Partial<Record<keyof Pending, [number | string, string][]>>): Pending {
  const result = emptyPending();
  for (const [key, entries] of Object.entries(parts) as [keyof Pending, [never, string][]][]) {
    for (const [id, json] of entries) (result[key] as Map<unknown, string>).set(id, json);
  }
  return result;
}

describe('mergePending (what a slow connection is held)', () => {
  it('keeps the later text of a user, phone or video source and adds the others', () => {
    const held = pending({
      gps: [
        [1, 'a1'],
        [2, 'b1'],
      ],
      heartRates: [['139', 'h1']],
      videos: [[7, 'v1']],
    });
    const ok = mergePending(
      held,
      pending({
        gps: [
          [2, 'b2'],
          [3, 'c1'],
        ],
        heartRates: [['139', 'h2']],
        videos: [[7, 'v2']],
      }),
    );
    expect(ok).toBe(true);
    expect([...held.gps]).toEqual([
      [1, 'a1'],
      [2, 'b2'],
      [3, 'c1'],
    ]);
    expect([...held.heartRates]).toEqual([['139', 'h2']]);
    expect([...held.videos]).toEqual([[7, 'v2']]);
  });

  it('moves an alarm that changed again to the end, so alarms stay in the order they last changed', () => {
    const held = pending({
      notifications: [
        [10, 'raised'],
        [11, 'raised'],
      ],
    });
    mergePending(held, pending({ notifications: [[10, 'handled']] }));
    expect([...held.notifications]).toEqual([
      [11, 'raised'],
      [10, 'handled'],
    ]);
  });

  it('says when more than 1,000 alarms are held (a snapshot is sent instead)', () => {
    const many = (from: number, count: number) =>
      pending({ notifications: Array.from({ length: count }, (_, i) => [from + i, 'n'] as [number, string]) });
    const held = many(0, 600);
    expect(mergePending(held, many(600, 400))).toBe(true);
    expect(mergePending(held, many(1000, 1))).toBe(false);
  });
});
