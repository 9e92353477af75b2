import { describe, expect, test, vi } from 'vitest';
import { UserFeatureIndex, type UserDiff, type UserPoint } from './userFeatureDiff';
import { UserSourceFeeder, type UsersSourceLike } from './UserSourceFeeder';

const at = (lon: number): UserPoint => ({ lon, lat: 0, name: 'A', state: 'online' });

/** A source that takes each call when the test says so, as MapLibre's worker answers in its time. */
class FakeSource implements UsersSourceLike {
  readonly features = new Map<number, number>();
  readonly states = new Map<number, string>();
  readonly calls: string[] = [];
  readonly added: number[][] = [];
  tilesSettled?: () => Promise<void>;
  private pending: (() => void)[] = [];
  updateData(diff: UserDiff) {
    this.calls.push(`updateData +${diff.add.length} ~${diff.update.length} -${diff.remove.length}`);
    this.added.push(diff.add.map((f) => Number(f.id)));
    return this.later(() => {
      for (const f of diff.add) {
        this.features.set(Number(f.id), f.geometry.coordinates[0]!);
        this.states.set(Number(f.id), f.properties.state);
      }
      for (const u of diff.update) {
        // MapLibre ignores an update of a feature it does not hold.
        if (u.newGeometry && this.features.has(u.id)) this.features.set(u.id, u.newGeometry.coordinates[0]!);
      }
      for (const id of diff.remove) this.features.delete(id);
    });
  }
  /** Completes the oldest call; false when none is waiting. */
  answer(): boolean {
    const next = this.pending.shift();
    next?.();
    return next !== undefined;
  }
  private later(apply: () => void) {
    return new Promise<void>((resolve) => this.pending.push(() => (apply(), resolve())));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function answerAll(source: FakeSource) {
  for (await settle(); source.answer(); await settle());
}

/** Users 1..count at longitudes 0..count-1, a snapshot of them loading in calls of 10; no pause between diffs. */
async function loading(count: number) {
  const index = new UserFeatureIndex();
  index.replace(Array.from({ length: count }, (_, i) => [i + 1, at(i)] as [number, UserPoint]));
  const source = new FakeSource();
  const feeder = new UserSourceFeeder(source, index, 10, 0);
  feeder.apply('reset');
  await settle();
  return { index, source, feeder };
}

describe('UserSourceFeeder', () => {
  test('a snapshot goes in calls of a few users, each after the last was taken', async () => {
    const { source } = await loading(25);
    // One call at a time: the next is made only when the worker has answered.
    expect(source.calls).toEqual(['updateData +10 ~0 -0']);
    await answerAll(source);
    expect(source.calls).toEqual(['updateData +10 ~0 -0', 'updateData +10 ~0 -0', 'updateData +5 ~0 -0']);
    expect(source.features.size).toBe(25);
  });

  test('a user who moves or leaves while the snapshot is loading ends where the index says', async () => {
    const { index, source, feeder } = await loading(30);
    // User 25 (not sent yet) and user 2 (in the first call) move; user 30 leaves; user 31 comes.
    feeder.apply(
      index.apply([
        [25, at(100)],
        [2, at(200)],
        [30, undefined],
        [31, at(300)],
      ]),
    );
    await answerAll(source);
    expect(source.features.get(25)).toBe(100);
    expect(source.features.get(2)).toBe(200);
    expect(source.features.has(30)).toBe(false);
    expect(source.features.get(31)).toBe(300);
    expect(source.features.size).toBe(30);
  });

  test('a new snapshot replaces the one still loading and removes the users it lacks', async () => {
    const { index, source, feeder } = await loading(30);
    source.answer();
    await settle();
    index.replace([
      [1, at(50)],
      [99, at(9)],
    ]);
    feeder.apply('reset');
    await answerAll(source);
    expect([...source.features.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 50],
      [99, 9],
    ]);
    // Users 1-20 were sent before the new set came; 2-20 go, 99 (new) comes before 1 (held).
    expect(source.calls.at(-1)).toBe('updateData +2 ~0 -19');
    expect(source.added.at(-1)).toEqual([99, 1]);
  });

  test('a snapshot with no users empties the source', async () => {
    const index = new UserFeatureIndex();
    index.replace([[1, at(1)]]);
    const source = new FakeSource();
    const feeder = new UserSourceFeeder(source, index, 10);
    feeder.apply('reset');
    await answerAll(source);
    index.replace([]);
    feeder.apply('reset');
    await answerAll(source);
    expect(source.features.size).toBe(0);
  });

  test('diffs made while one is in the worker go as one, each user as the index holds it then', async () => {
    const { index, source, feeder } = await loading(5);
    await answerAll(source);
    feeder.apply(index.apply([[1, at(10)]]));
    await settle();
    // A move goes as the whole feature (MapLibre's worker applies many `update`s in quadratic time).
    expect(source.calls.at(-1)).toBe('updateData +1 ~0 -0');
    feeder.apply(
      index.apply([
        [1, at(11)],
        [2, at(20)],
      ]),
    );
    feeder.apply(
      index.apply([
        [1, at(12)],
        [3, undefined],
        [40, at(40)],
        [2, { ...at(20), state: 'sos' }],
      ]),
    );
    await settle();
    // Nothing more until the worker answered the first.
    expect(source.calls).toHaveLength(2);
    await answerAll(source);
    expect(source.calls.slice(2)).toEqual(['updateData +3 ~0 -1']);
    expect(source.added.at(-1)?.sort()).toEqual([1, 2, 40]);
    expect(source.states.get(2)).toBe('sos');
    expect(source.features.get(1)).toBe(12);
    expect(source.features.get(2)).toBe(20);
    expect(source.features.has(3)).toBe(false);
    expect(source.features.get(40)).toBe(40);
  });

  test('the next diff waits until the tiles of the last are built, then goes with every change of that time', async () => {
    const { index, source, feeder } = await loading(5);
    await answerAll(source);
    const builds: (() => void)[] = [];
    source.tilesSettled = () => new Promise<void>((resolve) => builds.push(resolve));
    feeder.apply(index.apply([[1, at(10)]]));
    await answerAll(source);
    expect(source.features.get(1)).toBe(10);
    feeder.apply(index.apply([[2, at(20)]]));
    feeder.apply(index.apply([[1, at(11)]]));
    await answerAll(source);
    // The worker took the first diff but its tiles are still being built: nothing else is sent.
    expect(source.calls).toHaveLength(2);
    expect(builds).toHaveLength(1);
    builds.shift()!();
    await answerAll(source);
    expect(source.calls.slice(2)).toEqual(['updateData +2 ~0 -0']);
    expect(source.features.get(1)).toBe(11);
    expect(source.features.get(2)).toBe(20);
  });

  test('after a diff the next waits a pause that grows with the users in the source', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const index = new UserFeatureIndex();
      index.replace(Array.from({ length: 1000 }, (_, i) => [i + 1, at(i)] as [number, UserPoint]));
      const source = new FakeSource();
      // 0.1 ms a user: 100 ms for 1,000 users.
      const feeder = new UserSourceFeeder(source, index, 5000, 0.1, () => now);
      feeder.apply(index.apply([[1, at(-1)]]));
      expect(source.calls).toEqual(['updateData +1 ~0 -0']);
      source.answer();
      await vi.advanceTimersByTimeAsync(0);
      feeder.apply(index.apply([[2, at(-2)]]));
      now = 99;
      await vi.advanceTimersByTimeAsync(99);
      expect(source.calls).toHaveLength(1);
      now = 100;
      await vi.advanceTimersByTimeAsync(1);
      expect(source.calls).toEqual(['updateData +1 ~0 -0', 'updateData +1 ~0 -0']);
    } finally {
      vi.useRealTimers();
    }
  });
});
