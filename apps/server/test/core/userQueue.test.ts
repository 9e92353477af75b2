import { describe, expect, it } from 'vitest';
import { UserQueue } from '../../src/core/userQueue.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('UserQueue', () => {
  it("runs a user's tasks one after another in the order queued, other users independently", async () => {
    const order: string[] = [];
    const queue = new UserQueue(() => undefined, 'test');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    void queue.run(1, async () => {
      await gate;
      order.push('1a');
    });
    void queue.run(1, () => order.push('1b'));
    const other = queue.run(2, () => order.push('2a'));
    await other;
    expect(order).toEqual(['2a']);
    expect(queue.has(1)).toBe(true);
    release();
    await Promise.allSettled(queue.pending());
    expect(order).toEqual(['2a', '1a', '1b']);
    await tick();
    expect(queue.size).toBe(0);
  });

  it('reports a failed task with its context and runs the next one all the same', async () => {
    const errors: [unknown, string][] = [];
    const queue = new UserQueue((error, context) => errors.push([error, context]), 'default context');
    const failure = new Error('no');
    const ran: number[] = [];
    await expect(
      queue.run(7, () => {
        throw failure;
      }),
    ).resolves.toBeUndefined();
    await queue.run(7, () => ran.push(1), 'named');
    await queue.run(7, () => Promise.reject(failure), 'named');
    expect(ran).toEqual([1]);
    expect(errors).toEqual([
      [failure, 'default context'],
      [failure, 'named'],
    ]);
  });
});
