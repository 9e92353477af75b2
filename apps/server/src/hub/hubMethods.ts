import type { FastifyBaseLogger } from 'fastify';
import type { HubConnection } from './hubConnection.js';
import { ServerStream } from './serverStream.js';

/** A failure whose message the client may see; anything else is reported as unexpected. */
export class HubError extends Error {
  override name = 'HubError';
}

export interface HubCallContext {
  connection: HubConnection;
  invocationId: string | undefined;
}

export interface HubMethod {
  /** `invoke` (with an id: the result or error goes back in a Completion) and `send` (no reply). */
  invoke?: (context: HubCallContext, args: unknown[]) => unknown;
  /** `stream`: write items to `stream`; it ends on complete, on the client's cancel or with the connection. */
  stream?: (context: HubCallContext, args: unknown[], stream: ServerStream) => void;
}

/** The hub's methods by name (case-insensitive, as SignalR's): invocations, streams and their completions. */
export class HubMethods {
  private readonly byName = new Map<string, HubMethod>();

  constructor(private readonly log: FastifyBaseLogger) {}

  add(name: string, method: HubMethod): void {
    this.byName.set(name.toLowerCase(), method);
  }

  invoke(connection: HubConnection, target: string, args: unknown[], invocationId: string | undefined): void {
    const method = this.byName.get(target.toLowerCase());
    if (!method?.invoke) {
      const error = method
        ? `The client attempted to invoke the streaming '${target}' method with a non-streaming invocation.`
        : `Unknown hub method '${target}'`;
      this.reply(connection, invocationId, { error });
      return;
    }
    let result: unknown;
    try {
      result = method.invoke({ connection, invocationId }, args);
    } catch (error) {
      this.reply(connection, invocationId, { error: this.errorText(target, error) });
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (value: unknown) => this.reply(connection, invocationId, { result: value }),
        (error: unknown) => this.reply(connection, invocationId, { error: this.errorText(target, error) }),
      );
    } else {
      this.reply(connection, invocationId, { result });
    }
  }

  startStream(connection: HubConnection, target: string, args: unknown[], invocationId: string): void {
    const method = this.byName.get(target.toLowerCase());
    if (!method?.stream) {
      const error = method
        ? `The client attempted to invoke the non-streaming '${target}' method with a streaming invocation.`
        : `Unknown hub method '${target}'`;
      this.reply(connection, invocationId, { error });
      return;
    }
    if (connection.streams.has(invocationId)) {
      this.reply(connection, invocationId, { error: `Invocation ID '${invocationId}' is already in use.` });
      return;
    }
    const stream = new ServerStream(connection, invocationId);
    connection.streams.set(invocationId, stream);
    try {
      method.stream({ connection, invocationId }, args, stream);
    } catch (error) {
      stream.complete(this.errorText(target, error));
    }
  }

  reply(
    connection: HubConnection,
    invocationId: string | undefined,
    outcome: { result: unknown } | { error: string },
  ): void {
    if (invocationId !== undefined) connection.send(connection.wire.completion(invocationId, outcome));
  }

  private errorText(target: string, error: unknown): string {
    if (error instanceof HubError) return error.message;
    this.log.error({ err: error, target }, 'hub method failed');
    return `An unexpected error occurred invoking '${target}' on the server.`;
  }
}
