/** Where a shared store says that Redis went away and came back. */
export interface ThrottleLog {
  warn(obj: object, message: string): void;
  info(obj: object, message: string): void;
}

/** The part of an ioredis client the shared counters and flags use. */
export interface FallbackRedisClient {
  readonly status: string;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/** What the log says when Redis goes away (a warning) and when it answers again (info). */
export interface FallbackMessages {
  down: string;
  back: string;
}

/**
 * Runs Redis commands for state shared by every instance that has a per-instance fallback in
 * memory: a command's answer, or undefined when Redis is not connected or did not answer (within
 * the client's command timeout), and the caller uses its memory. Logs the change once each way.
 */
export class RedisFallback {
  private up = true;

  constructor(
    private readonly redis: { readonly status: string },
    private readonly log: ThrottleLog,
    private readonly messages: FallbackMessages,
  ) {}

  async call<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (this.redis.status !== 'ready') {
      this.down(new Error(`redis connection is ${this.redis.status}`));
      return undefined;
    }
    try {
      const result = await command();
      if (!this.up) {
        this.up = true;
        this.log.info({}, this.messages.back);
      }
      return result;
    } catch (error) {
      this.down(error);
      return undefined;
    }
  }

  private down(error: unknown): void {
    if (!this.up) return;
    this.up = false;
    this.log.warn({ err: error }, this.messages.down);
  }
}
