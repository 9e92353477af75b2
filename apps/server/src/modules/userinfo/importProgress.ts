import type { UserImportPhase, UserImportProgress } from '@intercom/contract';
import type { EventBus } from '../../bus/eventBus.js';

/** How long the last word of an import is kept after it changed (a client polls while it runs). */
const KEEP_MS = 10 * 60_000;
/** Progress within a stage is published at most this often; a new stage at once. */
const PUBLISH_EVERY_MS = 250;

/** Reports an import's stage and how much of it is done. */
export type ImportProgressReport = (phase: UserImportPhase, done: number, total: number) => void;

/** A report that goes nowhere (an import whose client asked for no progress). */
export const noProgress: ImportProgressReport = () => undefined;

interface Kept extends UserImportProgress {
  at: number;
}

/**
 * The progress of user imports (`GET /api/UserInfo/ImportProgress`). An import publishes its progress
 * on the bus; every instance keeps the latest per import, so a poll is answered by whichever instance
 * the load balancer picks. An import is known only to the account that started it.
 */
export class ImportProgressBoard {
  private readonly imports = new Map<string, Kept>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: EventBus,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = bus.on('importProgress', (event) => {
      const { phase, done, total } = event;
      this.prune();
      this.imports.set(keyOf(event.E_ID, event.A_ID, event.importId), { phase, done, total, at: this.now() });
    });
  }

  /** What is known of the account's import (`pending`: nothing yet). */
  progress(E_ID: number, A_ID: number, importId: string): UserImportProgress {
    const kept = this.imports.get(keyOf(E_ID, A_ID, importId));
    if (!kept || kept.at + KEEP_MS < this.now()) return { phase: 'pending', done: 0, total: 0 };
    const { phase, done, total } = kept;
    return { phase, done, total };
  }

  /** The report function of one import: a new stage is published at once, progress within one at most every 250 ms. */
  reporter(E_ID: number, A_ID: number, importId: string | undefined): ImportProgressReport {
    if (importId === undefined) return noProgress;
    let lastPhase: UserImportPhase | null = null;
    let lastAt = 0;
    return (phase, done, total) => {
      const at = this.now();
      const last = phase === 'done' || phase === 'failed' || done >= total;
      if (phase === lastPhase && !last && at - lastAt < PUBLISH_EVERY_MS) return;
      lastPhase = phase;
      lastAt = at;
      this.bus.publish({ kind: 'importProgress', E_ID, A_ID, importId, phase, done, total });
    };
  }

  close(): void {
    this.unsubscribe();
    this.imports.clear();
  }

  private prune(): void {
    const old = this.now() - KEEP_MS;
    for (const [key, kept] of this.imports) if (kept.at < old) this.imports.delete(key);
  }
}

function keyOf(E_ID: number, A_ID: number, importId: string): string {
  return `${E_ID}:${A_ID}:${importId}`;
}
