import { describe, expect, it } from 'vitest';
import { FairQueue } from '../src/core/fairQueue.js';

const drain = (queue: FairQueue<string>) => {
  const order: string[] = [];
  for (let next = queue.shift(); next; next = queue.shift()) order.push(next.item);
  return order;
};

describe('FairQueue', () => {
  it('serves one item of each tenant per round, oldest first', () => {
    const queue = new FairQueue<string>(100);
    for (const [tenant, item] of [
      [1, 'a1'],
      [1, 'a2'],
      [1, 'a3'],
      [2, 'b1'],
      [3, 'c1'],
      [2, 'b2'],
    ] as const)
      queue.add(tenant, item);
    expect(drain(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(queue.size).toBe(0);
  });

  it('when full, a newcomer takes the newest place of the tenant holding the most, until shares are even', () => {
    const queue = new FairQueue<string>(4);
    for (const item of ['a1', 'a2', 'a3', 'a4']) expect(queue.add(1, item)).toEqual({ admitted: true });
    expect(queue.add(1, 'a5')).toEqual({ admitted: false });
    expect(queue.add(2, 'b1')).toEqual({ admitted: true, evicted: { tenant: 1, item: 'a4' } });
    expect(queue.add(2, 'b2')).toEqual({ admitted: true, evicted: { tenant: 1, item: 'a3' } });
    // Even shares (2 and 2): neither takes from the other.
    expect(queue.add(2, 'b3')).toEqual({ admitted: false });
    expect(queue.add(1, 'a6')).toEqual({ admitted: false });
    expect(queue.add(3, 'c1')).toEqual({ admitted: true, evicted: { tenant: 1, item: 'a2' } });
    expect([queue.sizeOf(1), queue.sizeOf(2), queue.sizeOf(3), queue.size]).toEqual([1, 2, 1, 4]);
    expect(drain(queue)).toEqual(['a1', 'b1', 'c1', 'b2']);
  });

  it('forgets a removed item, and a tenant whose queue empties leaves the ring', () => {
    const queue = new FairQueue<string>(10);
    queue.add(1, 'a1');
    queue.add(2, 'b1');
    queue.add(2, 'b2');
    expect(queue.remove(1, 'a1')).toBe(true);
    expect(queue.remove(1, 'a1')).toBe(false);
    queue.add(1, 'a2');
    expect([queue.has(2, 'b2'), queue.has(1, 'a1')]).toEqual([true, false]);
    expect(drain(queue)).toEqual(['b1', 'a2', 'b2']);
  });
});
