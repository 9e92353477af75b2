import { describe, expect, test, vi } from 'vitest';
import { UserPointIndex, type UserPoint } from './UserPointIndex';
import { MAX_DIFF_PAUSE_MS, UserSourceFeeder, type UsersSourceLike } from './UserSourceFeeder';

const at = (lon: number): UserPoint => ({ lon, lat: 0, name: 'A', state: 'online' });

/** A source that takes each batch when the test says so, as the tile worker answers in its time. */
class FakeSource implements UsersSourceLike {
  /** Longitude of each user the source holds. */
  readonly held = new Map<number, number>();
  readonly calls: string[] = [];
  tilesSettled?: () => Promise<void>;
  private pending: (() => void)[] = [];
  constructor(private readonly index: UserPointIndex) {}
  send(upsert: readonly number[], remove: readonly number[], replace: boolean) {
    this.calls.push(`${replace ? 'replace' : 'batch'} +${upsert.length} -${remove.length}`);
    // The batch is built when sent: each user as the index holds it then.
    const points = upsert.map((id) => [id, this.index.get(id)!.lon] as const);
    return new Promise<void>((resolve) =>
      this.pending.push(() => {
        if (replace) this.held.clear();
        for (const [id, lon] of points) this.held.set(id, lon);
        for (const id of remove) this.held.delete(id);
        resolve();
      }),
    );
  }
  /** Completes the oldest batch; false when none is waiting. */
  answer(): boolean {
    const next = this.pending.shift();
    next?.();
    return next !== undefined;
  }
}

/** No pause after a batch and no least interval between two. */
const AT_ONCE = { pauseMsPerUser: 0, minIntervalMs: 0 };

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function answerAll(source: FakeSource) {
  for (await settle(); source.answer(); await settle());
}

function users(count: number): UserPointIndex {
  const index = new UserPointIndex();
  index.replace(Array.from({ length: count }, (_, i) => [i + 1, at(i)] as [number, UserPoint]));
  return index;
}

describe('UserSourceFeeder', () => {
  test('a snapshot goes as one batch replacing everything the source held', async () => {
    const index = users(25);
    const source = new FakeSource(index);
    source.held.set(99, 0);
    const feeder = new UserSourceFeeder(source, index, AT_ONCE);
    feeder.replaceAll();
    await answerAll(source);
    expect(source.calls).toEqual(['replace +25 -0']);
    expect(source.held.size).toBe(25);
    expect(source.held.has(99)).toBe(false);
    expect(source.held.get(25)).toBe(24);
  });

  test('changes made while a batch is in flight go together in the next, each user as it is then', async () => {
    const index = users(10);
    const source = new FakeSource(index);
    const feeder = new UserSourceFeeder(source, index, AT_ONCE);
    feeder.replaceAll();
    feeder.apply(index.apply([[1, at(100)]]));
    feeder.apply(index.apply([[2, at(200)]]));
    feeder.apply(index.apply([[1, at(101)]]));
    feeder.apply(index.apply([[3, undefined]]));
    expect(source.calls).toEqual(['replace +10 -0']);
    await answerAll(source);
    expect(source.calls).toEqual(['replace +10 -0', 'batch +2 -1']);
    expect(source.held.get(1)).toBe(101);
    expect(source.held.get(2)).toBe(200);
    expect(source.held.has(3)).toBe(false);
  });

  test('a user added then removed before the batch went is sent as removed', async () => {
    const index = users(2);
    const source = new FakeSource(index);
    const feeder = new UserSourceFeeder(source, index, AT_ONCE);
    feeder.replaceAll();
    feeder.apply(index.apply([[5, at(5)]]));
    feeder.apply(index.apply([[5, undefined]]));
    await answerAll(source);
    expect(source.calls.at(-1)).toBe('batch +0 -1');
    expect([...source.held.keys()].sort()).toEqual([1, 2]);
  });

  test('a snapshot while a batch is in flight waits for it, then replaces; the changes waiting are dropped', async () => {
    const index = users(3);
    const source = new FakeSource(index);
    const feeder = new UserSourceFeeder(source, index, AT_ONCE);
    feeder.replaceAll();
    feeder.apply(index.apply([[1, at(50)]]));
    index.replace([[7, at(7)]]);
    feeder.replaceAll();
    await answerAll(source);
    expect(source.calls).toEqual(['replace +3 -0', 'replace +1 -0']);
    expect([...source.held]).toEqual([[7, 7]]);
  });

  test('the next batch waits until the tiles of the last are drawn', async () => {
    const index = users(2);
    const source = new FakeSource(index);
    let drawn: () => void = () => undefined;
    source.tilesSettled = () => new Promise((resolve) => (drawn = resolve));
    const feeder = new UserSourceFeeder(source, index, AT_ONCE);
    feeder.replaceAll();
    await answerAll(source);
    feeder.apply(index.apply([[1, at(9)]]));
    await settle();
    expect(source.calls).toEqual(['replace +2 -0']);
    drawn();
    await settle();
    expect(source.calls).toEqual(['replace +2 -0', 'batch +1 -0']);
  });

  test('after a batch the next waits a pause that grows with the users held', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const index = users(1000);
      const source = new FakeSource(index);
      // 0.04 ms a user: 40 ms for 1,000 users.
      const feeder = new UserSourceFeeder(source, index, { pauseMsPerUser: 0.04, minIntervalMs: 0, now: () => now });
      feeder.apply(index.apply([[1, at(-1)]]));
      expect(source.calls).toEqual(['batch +1 -0']);
      source.answer();
      await vi.advanceTimersByTimeAsync(0);
      feeder.apply(index.apply([[2, at(-2)]]));
      now = 39;
      await vi.advanceTimersByTimeAsync(39);
      expect(source.calls).toHaveLength(1);
      now = 40;
      await vi.advanceTimersByTimeAsync(1);
      expect(source.calls).toEqual(['batch +1 -0', 'batch +1 -0']);
      // The pause has a cap (MAX_DIFF_PAUSE_MS), however many users there are.
      source.answer();
      await vi.advanceTimersByTimeAsync(0);
      index.replace(Array.from({ length: 100_000 }, (_, i) => [i + 1, at(i)] as [number, UserPoint]));
      feeder.apply(index.apply([[3, at(-3)]]));
      now = 40 + MAX_DIFF_PAUSE_MS;
      await vi.advanceTimersByTimeAsync(MAX_DIFF_PAUSE_MS);
      expect(source.calls).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  test('batches start at least the least interval apart, however soon the tiles settle; a snapshot does not wait', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const index = users(10);
      const source = new FakeSource(index);
      const feeder = new UserSourceFeeder(source, index, { pauseMsPerUser: 0, minIntervalMs: 250, now: () => now });
      feeder.apply(index.apply([[1, at(-1)]]));
      source.answer();
      // Pushes every 50 ms: their changes gather until 250 ms after the first batch, then go as one.
      for (const [step, id] of [
        [50, 2],
        [100, 3],
        [150, 4],
        [200, 5],
      ] as const) {
        now = step;
        await vi.advanceTimersByTimeAsync(50);
        feeder.apply(index.apply([[id, at(-id)]]));
      }
      now = 249;
      await vi.advanceTimersByTimeAsync(49);
      expect(source.calls).toEqual(['batch +1 -0']);
      now = 250;
      await vi.advanceTimersByTimeAsync(1);
      expect(source.calls).toEqual(['batch +1 -0', 'batch +4 -0']);
      source.answer();
      await vi.advanceTimersByTimeAsync(0);
      // A snapshot replaces everything at once.
      now = 260;
      feeder.replaceAll();
      expect(source.calls).toEqual(['batch +1 -0', 'batch +4 -0', 'replace +10 -0']);
    } finally {
      vi.useRealTimers();
    }
  });

  test('nothing is sent after stop', async () => {
    const index = users(2);
    const source = new FakeSource(index);
    const feeder = new UserSourceFeeder(source, index, AT_ONCE);
    feeder.replaceAll();
    feeder.apply(index.apply([[1, at(9)]]));
    feeder.stop();
    await answerAll(source);
    expect(source.calls).toEqual(['replace +2 -0']);
  });
});
