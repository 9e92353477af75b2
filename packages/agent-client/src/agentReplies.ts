import type { TalkAgentReply } from '@intercom/contract';
import { runtimeTimers, type AgentTimers } from './timers.js';

/** A command unanswered this long fails with `timeout`; the agent and the server answer at once. */
export const AGENT_REPLY_TIMEOUT_MS = 10_000;

/** Codes of failures found on this side; the agent's own codes (TalkAgentErrors) never take these. */
export const AgentClientErrors = {
  /** No reply within the timeout. */
  timeout: 'timeout',
  /** The connection closed (or the client stopped) before the reply came. */
  closed: 'closed',
  /** The socket was not open when the command was made. */
  notConnected: 'not_connected',
} as const;

/** A reply as it came: `{id, ok: true, ...}` or `{id, ok: false, code, message}`. */
export type AgentReply = Record<string, unknown> & { id: number; ok: boolean };

/** A command refused by the agent (its `code`), timed out, or lost with its socket. */
export class AgentCommandError extends Error {
  override readonly name = 'AgentCommandError';

  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
  }
}

export interface AgentRepliesOptions {
  /** Sends one text message (`{cmd, id, ...args}`) on the socket. */
  send: (text: string) => void;
  /** Default AGENT_REPLY_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The error a refusal, a timeout or a lost socket rejects with (default AgentCommandError). */
  error?: (code: string, message?: string) => Error;
  /** Where timeouts wait (default the runtime's timers). */
  timers?: AgentTimers;
}

interface Pending {
  resolve: (reply: AgentReply) => void;
  reject: (error: Error) => void;
  timer: unknown;
}

/**
 * The talk agent protocol's commands and their replies (docs/talk-agent-protocol.md): each command
 * gets the next `id`, and the reply with that id settles it once, with the reply, with the
 * refusal's code, on timeout, or when the socket goes (`failAll`). The socket is the caller's: a
 * browser WebSocket in the console, `ws` in the agent's tests; it hands every text message it gets
 * to `receive`.
 */
export class AgentReplies {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly options: AgentRepliesOptions) {}

  /** Sends `{cmd, id, ...args}`; resolves with the reply, refused or not (`timeoutMs`: this one's own). */
  request(cmd: string, args: Record<string, unknown> = {}, timeoutMs?: number): Promise<AgentReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const ms = timeoutMs ?? this.options.timeoutMs ?? AGENT_REPLY_TIMEOUT_MS;
      const timer = this.timers.after(ms, () => {
        this.pending.delete(id);
        reject(this.error(AgentClientErrors.timeout, `${cmd}: no reply within ${ms} ms`));
      });
      this.pending.set(id, { resolve, reject, timer });
      this.options.send(JSON.stringify({ cmd, id, ...args }));
    });
  }

  /** As `request`, but a refusal rejects with its code and message. */
  async command(cmd: string, args: Record<string, unknown> = {}): Promise<AgentReply> {
    const reply = await this.request(cmd, args);
    if (reply.ok) return reply;
    const refused = reply as unknown as Extract<TalkAgentReply, { ok: false }>;
    throw this.error(refused.code, refused.message);
  }

  /** A text message from the socket: true when it was a reply (settled if its id waits), false for an event. */
  receive(message: Record<string, unknown>): boolean {
    if (typeof message.id !== 'number' || typeof message.ok !== 'boolean') return false;
    const pending = this.pending.get(message.id);
    if (!pending) return true;
    this.pending.delete(message.id);
    this.timers.cancel(pending.timer);
    pending.resolve(message as AgentReply);
    return true;
  }

  /** The socket went: every command waiting fails with `code`. */
  failAll(code: string, message?: string): void {
    for (const pending of this.pending.values()) {
      this.timers.cancel(pending.timer);
      pending.reject(this.error(code, message));
    }
    this.pending.clear();
  }

  private get timers(): AgentTimers {
    return this.options.timers ?? runtimeTimers;
  }

  get waiting(): number {
    return this.pending.size;
  }

  private error(code: string, message?: string): Error {
    return this.options.error ? this.options.error(code, message) : new AgentCommandError(code, message);
  }
}
