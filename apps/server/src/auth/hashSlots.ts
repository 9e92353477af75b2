import { availableParallelism } from 'node:os';

/**
 * Runs of scrypt at once, the others waiting their turn in order. scrypt runs on libuv's thread
 * pool, which console and terminal logins, file reads and DNS share: bulk work that fills the pool
 * makes a login wait behind it (issue 48: four dry runs took a login from 1.1 to 10.7 s).
 */
export class HashSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.size) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot goes straight to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * The hashing budget of bulk work (user imports: new passwords and the comparison of known ones),
 * shared by every import of the process: at most the cores less one, and two threads of libuv's
 * pool (UV_THREADPOOL_SIZE, 4 by default) always left to logins and file work. At the production
 * cost a run holds 128 MiB, so the budget also bounds the memory hashing takes.
 */
export const bulkHashing = new HashSlots(
  Math.max(1, Math.min(availableParallelism() - 1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 2)),
);
