import { openTerminal } from './openTerminal.js';

/** Back-off between attempts to reach a lost platform: 1 s doubling to 30 s. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Whether the platform answers. After the seat's socket is lost, it retries with back-off; once the
 * platform answers again it reports 'connected', and the console logs the seat in again (an AuthCode
 * is one-time, so the agent cannot do that alone).
 */
export class ServerWatch {
  state: 'connected' | 'disconnected' = 'disconnected';
  private proxy: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delay = FIRST_RETRY_MS;

  constructor(private readonly report: (state: 'connected' | 'disconnected') => void) {}

  connected(proxy: string): void {
    this.stop();
    this.proxy = proxy;
    this.delay = FIRST_RETRY_MS;
    this.set('connected');
  }

  lost(): void {
    this.set('disconnected');
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), this.delay);
    this.timer.unref();
    this.delay = Math.min(MAX_RETRY_MS, this.delay * 2);
  }

  private async probe(): Promise<void> {
    if (!this.proxy) return;
    try {
      (await openTerminal(this.proxy)).close();
      this.delay = FIRST_RETRY_MS;
      this.set('connected');
    } catch {
      this.schedule();
    }
  }

  private set(state: 'connected' | 'disconnected'): void {
    if (this.state === state) return;
    this.state = state;
    this.report(state);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
