import { TalkError } from './talkTypes';

/** A command unanswered this long fails (`command sent failed`); the agent and the server answer at once. */
const REPLY_TIMEOUT_MS = 10_000;

type Pending = {
  resolve: (reply: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
};

/**
 * Commands to the talk agent waiting for their reply, by the agent protocol's `id`. Each
 * settles once: with its reply, with a TalkError of the refusal's code, on timeout, or when the
 * socket goes (failAll).
 */
export class PendingReplies {
  private readonly pending = new Map<number, Pending>();

  /** Registers `id` and runs `send`; resolves with the reply. */
  wait(id: number, send: () => void): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new TalkError('timeout'));
      }, REPLY_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      send();
    });
  }

  /** The reply to `id`: accepted, or refused with `code`. Unknown ids are ignored. */
  settle(id: number, reply: Record<string, unknown>, refused?: { code: string; message?: string }): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (refused) pending.reject(new TalkError(refused.code, refused.message));
    else pending.resolve(reply);
  }

  failAll(code: string): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new TalkError(code));
    }
    this.pending.clear();
  }
}
