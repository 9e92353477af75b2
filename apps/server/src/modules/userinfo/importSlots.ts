import { Code, UserImportKeys } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';

const busy = () => new AppError(Code.TooMany, UserImportKeys.busy);

/**
 * Imports running on this instance: at most one per enterprise and `max` in all (IMPORT_MAX_CONCURRENT).
 * Another is refused at once with 4029 userImport.busy (HTTP 429), before its file is read, rather
 * than queued: an import holds a worker's heap and the password-hashing slots for as long as it runs.
 */
export class ImportSlots {
  private readonly running = new Set<number>();

  constructor(private readonly max: number) {}

  /** Throws busy when an import of E_ID could not start now. */
  check(E_ID: number): void {
    if (this.running.has(E_ID) || this.running.size >= this.max) throw busy();
  }

  /** Takes the enterprise's slot (or throws busy); the function returned gives it back, once. */
  enter(E_ID: number): () => void {
    this.check(E_ID);
    this.running.add(E_ID);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running.delete(E_ID);
    };
  }
}
