import { TerminalLimits, type Fix } from '@intercom/contract';

/** Out of coverage for `seconds` in every `everySeconds`, starting `offsetMs` after the terminal starts. */
export interface TunnelSetup {
  seconds: number;
  everySeconds: number;
  offsetMs: number;
}

/** Fixes kept at most while out of coverage (a day at 1 fix every 10 s); the oldest go first. */
const MAX_BACKLOG = 8_640;

/**
 * A terminal's stored-up fixes while it drives through a tunnel: kept while out of coverage, sent
 * as `positions` batches of up to 100 fixes, oldest first, once back (docs/terminal-protocol.md).
 */
export class FixBacklog {
  private fixes: Fix[] = [];
  private sending = false;

  constructor(
    private readonly tunnel: TunnelSetup | undefined,
    private readonly startedAt: number,
  ) {}

  get size(): number {
    return this.fixes.length;
  }

  /** True while the terminal is out of coverage. */
  inTunnel(now: number): boolean {
    if (!this.tunnel || this.tunnel.seconds <= 0) return false;
    const cycleMs = this.tunnel.everySeconds * 1000;
    const into = (((now - this.startedAt - this.tunnel.offsetMs) % cycleMs) + cycleMs) % cycleMs;
    return into < this.tunnel.seconds * 1000;
  }

  keep(fix: Fix): void {
    this.fixes.push(fix);
    if (this.fixes.length > MAX_BACKLOG) this.fixes.shift();
  }

  /**
   * Sends the backlog batch by batch, each after the previous one's ack; a batch not acknowledged
   * stays at the front for the next attempt. Resolves with the fixes acknowledged.
   */
  async send(sendBatch: (fixes: Fix[]) => Promise<boolean>): Promise<number> {
    if (this.sending) return 0;
    this.sending = true;
    let acked = 0;
    try {
      while (this.fixes.length > 0) {
        const batch = this.fixes.slice(0, TerminalLimits.fixesPerBatch);
        if (!(await sendBatch(batch))) break;
        this.fixes.splice(0, batch.length);
        acked += batch.length;
      }
    } finally {
      this.sending = false;
    }
    return acked;
  }
}
