import { describe, expect, test } from 'vitest';
import { UserFeatureIndex, type UserPoint } from './userFeatureDiff';

const at = (lon: number, lat: number, state: UserPoint['state'] = 'online', name = 'A'): UserPoint => ({
  lon,
  lat,
  name,
  state,
});

describe('UserFeatureIndex', () => {
  test('a new user is added as a feature with its id, position and state', () => {
    const index = new UserFeatureIndex();
    const diff = index.apply([[7, at(10, 20)]]);
    expect(diff).toEqual({
      add: [
        {
          type: 'Feature',
          id: 7,
          geometry: { type: 'Point', coordinates: [10, 20] },
          properties: { name: 'A', state: 'online' },
        },
      ],
      update: [],
      remove: [],
    });
    expect(index.size).toBe(1);
  });

  test('a move sends only the new geometry; a state change only the state', () => {
    const index = new UserFeatureIndex();
    index.replace([
      [1, at(10, 20)],
      [2, at(11, 21)],
    ]);
    const moved = index.apply([[1, at(10.5, 20)]]);
    expect(moved).toEqual({
      add: [],
      update: [{ id: 1, newGeometry: { type: 'Point', coordinates: [10.5, 20] } }],
      remove: [],
    });
    const sos = index.apply([[2, at(11, 21, 'sos')]]);
    expect(sos).toEqual({
      add: [],
      update: [{ id: 2, addOrUpdateProperties: [{ key: 'state', value: 'sos' }] }],
      remove: [],
    });
    expect(index.get(2)?.state).toBe('sos');
  });

  test('the same values again change nothing', () => {
    const index = new UserFeatureIndex();
    index.replace([[1, at(10, 20)]]);
    expect(index.apply([[1, at(10, 20)]])).toBeNull();
  });

  test('removing a user sends its id; removing an unknown one sends nothing', () => {
    const index = new UserFeatureIndex();
    index.replace([[1, at(10, 20)]]);
    expect(index.apply([[1, undefined]])).toEqual({ add: [], update: [], remove: [1] });
    expect(index.size).toBe(0);
    expect(index.apply([[1, undefined]])).toBeNull();
  });

  test('when most of a large set changes at once the diff still names only the users that changed', () => {
    const index = new UserFeatureIndex();
    index.replace(Array.from({ length: 2000 }, (_, i): [number, UserPoint] => [i, at(i / 100, 0)]));
    const most = Array.from({ length: 1500 }, (_, i): [number, UserPoint] => [i, at(i / 100, 1)]);
    const diff = index.apply(most);
    expect(diff?.update.map((update) => update.id)).toEqual(most.map(([id]) => id));
    expect(index.get(1499)).toEqual(at(14.99, 1));
    expect(index.get(1500)).toEqual(at(15, 0));
  });

  test('bounds frame every user, and there are none without users', () => {
    const index = new UserFeatureIndex();
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
