import type { Fix } from './fix';
import type { FixStore, StoredFix } from './fixStore';

/**
 * Fixes kept while offline at most (docs/field-app.md): at one a second, 83 minutes; at the default
 * minute, three and a half days. Past it the oldest are dropped first: the newest say where the
 * worker is now.
 */
export const FIX_QUEUE_LIMIT = 5000;
/** Fixes in one `positions` message (TerminalLimits.fixesPerBatch). */
export const FIX_BATCH = 100;

/** The bounded queue of fixes that wait for the socket, oldest first. */
export class FixQueue {
  constructor(
    private readonly store: FixStore,
    private readonly limit = FIX_QUEUE_LIMIT,
  ) {}

  /** Keeps `fix`; past the limit the oldest go. Returns the count kept. */
  async add(fix: Fix): Promise<number> {
    await this.store.add(fix);
    const count = await this.store.count();
    if (count <= this.limit) return count;
    const over = await this.store.oldest(count - this.limit);
    await this.store.remove(over.map((stored) => stored.key));
    return this.limit;
  }

  size(): Promise<number> {
    return this.store.count();
  }

  /** The next batch to send: at most FIX_BATCH, oldest first. */
  nextBatch(): Promise<StoredFix[]> {
    return this.store.oldest(FIX_BATCH);
  }

  /** Forgets fixes the server stored (or refused for good). */
  remove(batch: readonly StoredFix[]): Promise<void> {
    return this.store.remove(batch.map((stored) => stored.key));
  }
}
