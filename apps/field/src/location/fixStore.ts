import type { Fix } from './fix';

export interface StoredFix {
  key: number;
  fix: Fix;
}

/** Where fixes wait while the socket is down: IndexedDB on a device, memory in tests. */
export interface FixStore {
  add(fix: Fix): Promise<void>;
  count(): Promise<number>;
  /** The `limit` oldest, oldest first. */
  oldest(limit: number): Promise<StoredFix[]>;
  remove(keys: readonly number[]): Promise<void>;
}

/** A FixStore in memory: the fallback where IndexedDB is missing (private mode), and for tests. */
export class MemoryFixStore implements FixStore {
  private next = 1;
  private readonly fixes: StoredFix[] = [];

  add(fix: Fix): Promise<void> {
    this.fixes.push({ key: this.next++, fix });
    return Promise.resolve();
  }

  count(): Promise<number> {
    return Promise.resolve(this.fixes.length);
  }

  oldest(limit: number): Promise<StoredFix[]> {
    return Promise.resolve(this.fixes.slice(0, limit));
  }

  remove(keys: readonly number[]): Promise<void> {
    const gone = new Set(keys);
    for (let i = this.fixes.length - 1; i >= 0; i -= 1) if (gone.has(this.fixes[i]!.key)) this.fixes.splice(i, 1);
    return Promise.resolve();
  }
}

/** A FixStore that is still opening (IndexedDB opens asynchronously): each call waits for it. */
export class DeferredFixStore implements FixStore {
  constructor(private readonly opening: Promise<FixStore>) {}

  async add(fix: Fix): Promise<void> {
    return (await this.opening).add(fix);
  }

  async count(): Promise<number> {
    return (await this.opening).count();
  }

  async oldest(limit: number): Promise<StoredFix[]> {
    return (await this.opening).oldest(limit);
  }

  async remove(keys: readonly number[]): Promise<void> {
    return (await this.opening).remove(keys);
  }
}
