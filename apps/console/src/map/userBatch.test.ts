import { describe, expect, test } from 'vitest';
import { userBatch } from './userBatch';
import type { UserPoint } from './UserPointIndex';
import { USER_MAP_STATES } from './userMapState';

const points = new Map<number, UserPoint>([
  [1, { lon: 114.1, lat: 22.5, name: 'Alpha', state: 'online' }],
  [2, { lon: 114.2, lat: 22.6, name: 'Bravo', state: 'sos' }],
]);
const pointOf = (id: number) => points.get(id);

describe('userBatch', () => {
  test('carries each user in the arrays at the same index, its state as a code', () => {
    const batch = userBatch(pointOf, [1, 2], [], true, new Map());
    expect([...batch.ids]).toEqual([1, 2]);
    expect([...batch.lon]).toEqual([114.1, 114.2]);
    expect([...batch.lat]).toEqual([22.5, 22.6]);
    expect([...batch.states].map((code) => USER_MAP_STATES[code])).toEqual(['online', 'sos']);
    expect(batch.replace).toBe(true);
  });

  test('names go once; a snapshot sends them all again', () => {
    const sent = new Map<number, string>();
    expect(userBatch(pointOf, [1, 2], [], false, sent).names).toEqual([
      [1, 'Alpha'],
      [2, 'Bravo'],
    ]);
    expect(userBatch(pointOf, [1, 2], [], false, sent).names).toEqual([]);
    expect(userBatch(pointOf, [1], [], true, sent).names).toEqual([[1, 'Alpha']]);
  });

  test('a user asked for but no longer known goes as removed, and its name is forgotten', () => {
    const sent = new Map<number, string>([[9, 'Gone']]);
    const batch = userBatch(pointOf, [1, 9], [5], false, sent);
    expect([...batch.ids]).toEqual([1]);
    expect([...batch.removed]).toEqual([5, 9]);
    expect(sent.has(9)).toBe(false);
  });
});
