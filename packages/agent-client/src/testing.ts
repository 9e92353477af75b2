import { AgentReplies, type AgentRepliesOptions } from './agentReplies.js';
import { CLOSE_ABNORMAL, SOCKET_OPEN, type AgentSocketLike } from './socketLike.js';
import type { AgentTimers } from './timers.js';

/** A command as the client sent it. */
export type SentCommand = Record<string, unknown> & { cmd: string; id: number };

/**
 * A talk agent for unit tests, without a socket: `replies` is the client under test, `sent` what it
 * sent, and `answer` / `refuse` reply to the oldest command not answered yet.
 */
export class FakeAgent {
  readonly sent: SentCommand[] = [];
  readonly replies: AgentReplies;
  private answered = 0;

  constructor(options: Omit<AgentRepliesOptions, 'send'> = {}) {
    this.replies = new AgentReplies({ ...options, send: (text) => this.sent.push(JSON.parse(text) as SentCommand) });
  }

  answer(fields: Record<string, unknown> = {}): SentCommand {
    const command = this.next();
    this.replies.receive({ ...fields, id: command.id, ok: true });
    return command;
  }

  refuse(code: string, message?: string): SentCommand {
    const command = this.next();
    this.replies.receive({ id: command.id, ok: false, code, ...(message === undefined ? {} : { message }) });
    return command;
  }

  private next(): SentCommand {
    const command = this.sent[this.answered];
    if (!command) throw new Error('FakeAgent: no command waits for an answer');
    this.answered += 1;
    return command;
  }
}

/**
 * A socket an AgentClient under test connects to: `accept` / `refuse` / `drop` play the agent's
 * side, `push` delivers a frame, `sent` holds the commands the client wrote.
 */
export class FakeAgentSocket implements AgentSocketLike {
  readyState = 0;
  binaryType = 'blob';
  readonly sent: SentCommand[] = [];
  onopen: AgentSocketLike['onopen'] = null;
  onmessage: AgentSocketLike['onmessage'] = null;
  onclose: AgentSocketLike['onclose'] = null;
  onerror: AgentSocketLike['onerror'] = null;

  send(text: string): void {
    this.sent.push(JSON.parse(text) as SentCommand);
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }

  accept(): void {
    this.readyState = SOCKET_OPEN;
    this.onopen?.(undefined);
  }

  /** Nobody listens: error, then close 1006, as a browser reports it. */
  refuse(): void {
    this.readyState = 3;
    this.onerror?.(undefined);
    this.onclose?.({ code: CLOSE_ABNORMAL, reason: '' });
  }

  drop(code = CLOSE_ABNORMAL): void {
    this.close(code);
  }

  /** A frame from the agent: an object goes as JSON text, a string or bytes as they are. */
  push(data: Record<string, unknown> | string | Uint8Array | ArrayBuffer): void {
    const wire = typeof data === 'string' || data instanceof Uint8Array || data instanceof ArrayBuffer;
    this.onmessage?.({ data: wire ? data : JSON.stringify(data) });
  }

  /** Answers the last command sent (or the one with `id`) with `{id, ok: true, ...fields}`. */
  answer(fields: Record<string, unknown> = {}, id = this.sent.at(-1)?.id): void {
    this.push({ ...fields, id, ok: true });
  }
}

/** Timers a test advances by hand: `advance(ms)` runs, in time order, everything due by then. */
export class ManualTimers implements AgentTimers {
  private clock = 0;
  private nextHandle = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();

  constructor(start = 0) {
    this.clock = start;
  }

  now(): number {
    return this.clock;
  }

  after(ms: number, callback: () => void): number {
    const handle = this.nextHandle++;
    this.due.set(handle, { at: this.clock + ms, callback });
    return handle;
  }

  cancel(handle: unknown): void {
    this.due.delete(handle as number);
  }

  /** Timers waiting. */
  get pending(): number {
    return this.due.size;
  }

  advance(ms: number): void {
    const until = this.clock + ms;
    for (;;) {
      let first: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.due) if (entry[1].at <= until && (!first || entry[1].at < first[1].at)) first = entry;
      if (!first) break;
      this.due.delete(first[0]);
      this.clock = first[1].at;
      first[1].callback();
    }
    this.clock = until;
  }
}
