import { TerminalRequestError, type TerminalSocket } from '@intercom/terminal-client';
import type { Fix } from './fix';
import type { FixQueue } from './fixQueue';

/** Failures after which the same fix may be sent again later (docs/terminal-protocol.md "Errors"). */
const RETRYABLE = new Set(['closed', 'timeout', 'not_connected', 'busy', 'shutting_down', 'internal', 'rate_limited']);

function retryable(error: unknown): boolean {
  return !(error instanceof TerminalRequestError) || RETRYABLE.has(error.code);
}

/** The index of the fix a `positions` refusal names (`fixes.3.time` → 3). */
function refusedIndex(error: unknown): number | undefined {
  if (!(error instanceof TerminalRequestError)) return undefined;
  const match = /^fixes\.(\d+)/.exec(error.field ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Sends fixes: one `position` while the socket is up and nothing waits, else into the queue; the
 * queue goes out as `positions` batches of at most 100, oldest first, once the socket is back. A fix
 * the server refuses for good (`invalid`) is dropped, never sent forever.
 */
export class FixSender {
  private flushing = false;
  private waiting = 0;

  constructor(
    private readonly queue: FixQueue,
    private readonly socketIfOnline: () => TerminalSocket | undefined,
    private readonly onQueueSize: (size: number) => void,
  ) {}

  async init(): Promise<void> {
    this.setWaiting(await this.queue.size());
  }

  async send(fix: Fix): Promise<void> {
    const socket = this.socketIfOnline();
    if (!socket || this.flushing || this.waiting > 0) {
      this.setWaiting(await this.queue.add(fix));
      // Online behind a backlog: this fix goes with it (a flush under way sees it, or a new one starts).
      if (socket && !this.flushing) await this.flush();
      return;
    }
    try {
      await socket.request({ type: 'position', ...fix });
    } catch (error) {
      if (retryable(error)) this.setWaiting(await this.queue.add(fix));
    }
  }

  /** Sends what waits, oldest first, until it is all stored or the socket fails again. */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    let drained: boolean;
    try {
      drained = await this.sendBatches();
    } finally {
      this.flushing = false;
      this.setWaiting(await this.queue.size());
    }
    // A fix queued while the last (empty) batch was read: send it too, now that nobody else will.
    if (drained && this.waiting > 0 && this.socketIfOnline()) await this.flush();
  }

  /** Sends batches until the queue is empty (true) or the socket fails (false). */
  private async sendBatches(): Promise<boolean> {
    for (;;) {
      const socket = this.socketIfOnline();
      const batch = await this.queue.nextBatch();
      if (!socket) return false;
      if (batch.length === 0) return true;
      try {
        await socket.request({ type: 'positions', fixes: batch.map((stored) => stored.fix) });
        await this.queue.remove(batch);
      } catch (error) {
        if (retryable(error)) return false;
        const bad = refusedIndex(error);
        await this.queue.remove(bad === undefined ? batch : batch.slice(bad, bad + 1));
      }
      this.setWaiting(await this.queue.size());
    }
  }

  private setWaiting(size: number): void {
    this.waiting = size;
    this.onQueueSize(size);
  }
}
