import { describe, expect, test } from 'vitest';
import { batchNames, batchTransfer, userBatch } from './userBatch';
import type { UserPoint } from './UserPointIndex';
import { USER_MAP_STATES } from '../userMapState';

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
    const names = (batch: ReturnType<typeof userBatch>) => [...batchNames(batch)];
    expect(names(userBatch(pointOf, [1, 2], [], false, sent))).toEqual([
      [1, 'Alpha'],
      [2, 'Bravo'],
    ]);
    expect(names(userBatch(pointOf, [1, 2], [], false, sent))).toEqual([]);
    expect(names(userBatch(pointOf, [1], [], true, sent))).toEqual([[1, 'Alpha']]);
  });

  test('a user asked for but no longer known goes as removed, and its name is forgotten', () => {
    const sent = new Map<number, string>([[9, 'Gone']]);
    const batch = userBatch(pointOf, [1, 9], [5], false, sent);
    expect([...batch.ids]).toEqual([1]);
    expect([...batch.removed]).toEqual([5, 9]);
    expect(sent.has(9)).toBe(false);
  });

  test('names of any characters (empty, CJK, emoji, separators) come back as they went', () => {
    const odd = new Map<number, UserPoint>([
      [1, { lon: 1, lat: 1, name: '', state: 'online' }],
      [2, { lon: 2, lat: 2, name: '张三 😀', state: 'online' }],
      [3, { lon: 3, lat: 3, name: 'a\u0000b\u001e,|', state: 'online' }],
      [4, { lon: 4, lat: 4, name: 'Delta', state: 'online' }],
    ]);
    const batch = userBatch((id) => odd.get(id), [1, 2, 3, 4], [], true, new Map());
    expect(batchNames(batch)).toEqual(new Map([...odd].map(([id, point]) => [id, point.name])));
  });

  test('a batch moves its arrays to another thread without copying them', () => {
    const batch = userBatch(pointOf, [1, 2], [7], false, new Map());
    const buffers = batchTransfer(batch);
    expect(new Set(buffers).size).toBe(7);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(batch, buffers);
    port1.close();
    port2.close();
    expect(batch.ids.length).toBe(0);
    expect(batch.nameIds.length).toBe(0);
    expect(batch.nameLengths.length).toBe(0);
  });
});
