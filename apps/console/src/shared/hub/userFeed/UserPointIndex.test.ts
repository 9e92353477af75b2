import { describe, expect, test } from 'vitest';
import { UserPointIndex, type UserPoint } from './UserPointIndex';

const at = (lon: number, lat: number, state: UserPoint['state'] = 'online', name = 'A'): UserPoint => ({
  lon,
  lat,
  name,
  state,
});

describe('UserPointIndex', () => {
  test('a new user is added and named as changed', () => {
    const index = new UserPointIndex();
    expect(index.apply([[7, at(10, 20)]])).toEqual({ upsert: [7], remove: [] });
    expect(index.size).toBe(1);
    expect(index.get(7)).toEqual(at(10, 20));
  });

  test('a move, a new state and a new name each mark the user changed', () => {
    const index = new UserPointIndex();
    index.replace([
      [1, at(10, 20)],
      [2, at(11, 21)],
      [3, at(12, 22)],
    ]);
    expect(index.apply([[1, at(10.5, 20)]])).toEqual({ upsert: [1], remove: [] });
    expect(index.apply([[2, at(11, 21, 'sos')]])).toEqual({ upsert: [2], remove: [] });
    expect(index.apply([[3, at(12, 22, 'online', 'B')]])).toEqual({ upsert: [3], remove: [] });
    expect(index.get(1)?.lon).toBe(10.5);
    expect(index.get(2)?.state).toBe('sos');
    expect(index.get(3)?.name).toBe('B');
  });

  test('the same values again change nothing', () => {
    const index = new UserPointIndex();
    index.replace([[1, at(10, 20)]]);
    expect(index.apply([[1, at(10, 20)]])).toBeNull();
  });

  test('removing a user names its id; removing an unknown one changes nothing', () => {
    const index = new UserPointIndex();
    index.replace([[1, at(10, 20)]]);
    expect(index.apply([[1, undefined]])).toEqual({ upsert: [], remove: [1] });
    expect(index.size).toBe(0);
    expect(index.apply([[1, undefined]])).toBeNull();
  });

  test('when most of a large set changes at once the diff names only the users that changed', () => {
    const index = new UserPointIndex();
    index.replace(Array.from({ length: 2000 }, (_, i): [number, UserPoint] => [i, at(i / 100, 0)]));
    const most = Array.from({ length: 1500 }, (_, i): [number, UserPoint] => [i, at(i / 100, 1)]);
    const diff = index.apply([...most, [1999, at(19.99, 0)]]);
    expect(diff?.upsert).toEqual(most.map(([id]) => id));
    expect(index.get(1499)).toEqual(at(14.99, 1));
    expect(index.get(1500)).toEqual(at(15, 0));
  });

  test('bounds frame every user, and there are none without users', () => {
    const index = new UserPointIndex();
    expect(index.bounds()).toBeUndefined();
    index.replace([
      [1, at(114.1, 22.5)],
      [2, at(113.9, 22.7)],
    ]);
    expect(index.bounds()).toEqual([
      [113.9, 22.5],
      [114.1, 22.7],
    ]);
  });
});
