import type { IncomingMessage } from 'node:http';
import { TalkAgentErrors } from '@intercom/contract';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { z } from 'zod';
import { AgentError } from './agentError.js';

/** Commands are small JSON objects; anything larger is not a console talking to us. */
const MAX_PAYLOAD = 64 * 1024;

export interface CommandServerOptions<C extends { cmd: string; id: number }> {
  port: number;
  allowOrigins: readonly string[];
  schema: z.ZodType<C>;
  commandNames: readonly string[];
  /** Answers one command; throws AgentError for an error reply. */
  handle(command: C, client: WebSocket): Promise<Record<string, unknown>>;
  /** Told when a console connects (to send it the current state) or leaves. */
  onClient?(client: WebSocket, joined: boolean): void;
  /** The service's name in the log (`talk`, `monitor`) and where each command and its answer are logged. */
  name: string;
  log(line: string): void;
}

/** Commands that only read a state: their answers are not logged unless they fail (a console may poll them). */
const QUERIES = new Set(['LoginInfo', 'Health', 'Version']);

/** A text frame's data as a string (`ws` gives a Buffer, or its chunks). */
function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** The command's id when the message has a usable one (error replies name the command they answer). */
function idOf(message: unknown): number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null;
}

/**
 * A loopback-only WebSocket service of `{cmd, id, ...}` commands, one reply each, and broadcast events.
 * The Origin is checked at the upgrade: a page of another site gets HTTP 403 and never a socket, so it
 * cannot send a single command (browsers always send Origin; a missing one is refused too).
 */
export class CommandServer<C extends { cmd: string; id: number }> {
  readonly clients = new Set<WebSocket>();
  private readonly wss: WebSocketServer;
  readonly listening: Promise<number>;

  constructor(private readonly options: CommandServerOptions<C>) {
    this.wss = new WebSocketServer({
      host: '127.0.0.1',
      port: options.port,
      maxPayload: MAX_PAYLOAD,
      verifyClient: (info: { origin: string; req: IncomingMessage }, done) => {
        const allowed = options.allowOrigins.includes(info.origin);
        if (allowed) done(true);
        else done(false, 403, 'Origin not allowed');
      },
    });
    this.listening = new Promise((resolve, reject) => {
      this.wss.once('listening', () => {
        const address = this.wss.address();
        resolve(typeof address === 'object' && address ? address.port : options.port);
      });
      this.wss.once('error', reject);
    });
    this.wss.on('connection', (socket) => this.accept(socket));
  }

  private accept(socket: WebSocket): void {
    this.clients.add(socket);
    socket.on('close', () => {
      this.clients.delete(socket);
      this.options.onClient?.(socket, false);
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        send(socket, {
          id: null,
          ok: false,
          code: TalkAgentErrors.badRequest,
          message: 'binary frames are not commands',
        });
        return;
      }
      void this.answer(socket, textOf(data));
    });
    this.options.onClient?.(socket, true);
  }

  private async answer(socket: WebSocket, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      send(socket, { id: null, ok: false, code: TalkAgentErrors.badJson, message: 'the frame is not JSON' });
      return;
    }
    const id = idOf(message);
    const cmd = (message as { cmd?: unknown } | null)?.cmd;
    if (typeof cmd !== 'string' || !this.options.commandNames.includes(cmd)) {
      send(socket, { id, ok: false, code: TalkAgentErrors.unknownCommand, message: `no command ${String(cmd)}` });
      return;
    }
    const parsed = this.options.schema.safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'command';
      send(socket, { id, ok: false, code: TalkAgentErrors.badRequest, message: `${field}: ${issue?.message ?? ''}` });
      return;
    }
    const { cmd: name, id: commandId } = parsed.data;
    // Never the arguments: a Login carries an AuthCode.
    const label = `${this.options.name} ${name} #${commandId}`;
    const quiet = QUERIES.has(name);
    if (!quiet) this.options.log(`${label}: received`);
    const started = performance.now();
    const took = () => `${Math.round(performance.now() - started)} ms`;
    try {
      const result = await this.options.handle(parsed.data, socket);
      if (!quiet) this.options.log(`${label}: ok in ${took()}`);
      send(socket, { ...result, id: commandId, ok: true });
    } catch (error) {
      const known = error instanceof AgentError;
      const code = known ? error.code : 'internal';
      const text = error instanceof Error ? error.message : String(error);
      this.options.log(`${label}: ${code} in ${took()}: ${text}`);
      send(socket, { id: commandId, ok: false, code, message: text });
    }
  }

  /** An event to every connected console. */
  broadcast(event: Record<string, unknown>): void {
    for (const client of this.clients) send(client, event);
  }

  /** A binary frame (video) to every connected console, unchanged. */
  broadcastBinary(frame: Buffer): void {
    for (const client of this.clients) if (client.readyState === client.OPEN) client.send(frame, { binary: true });
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

export function send(socket: WebSocket, message: Record<string, unknown>): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
