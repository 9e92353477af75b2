import { describe, expect, it } from 'vitest';
import { LoginGate } from '../src/loginGate.js';

describe('LoginGate', () => {
  it('lets at most its limit of turns run at once, in the order they came, also past a failed one', async () => {
    const gate = new LoginGate(2);
    const open: ((ok: boolean) => void)[] = [];
    const started: number[] = [];
    const turns = [0, 1, 2, 3].map((i) =>
      gate
        .run(
          () =>
            new Promise<number>((resolve, reject) => {
              started.push(i);
              open[i] = (ok) => (ok ? resolve(i) : reject(new Error(`turn ${i} failed`)));
            }),
        )
        .catch((error: unknown) => (error as Error).message),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    open[1]?.(false);
    await expect(turns[1]).resolves.toBe('turn 1 failed');
    expect(started).toEqual([0, 1, 2]);
    open[0]?.(true);
    open[2]?.(true);
    await expect(turns[0]).resolves.toBe(0);
    await expect(turns[2]).resolves.toBe(2);
    expect(started).toEqual([0, 1, 2, 3]);
    open[3]?.(true);
    await expect(turns[3]).resolves.toBe(3);
  });
});
