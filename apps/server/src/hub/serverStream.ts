import type { HubConnection, SendOptions } from './hubConnection.js';

/**
 * A server-to-client stream (StreamInvocation): items, then a Completion. The client's
 * CancelInvocation, the method itself, or the end of the connection stops it.
 */
export class ServerStream {
  private done = false;
  private readonly cancelHandlers: (() => void)[] = [];

  constructor(
    readonly connection: HubConnection,
    readonly invocationId: string,
  ) {}

  get closed(): boolean {
    return this.done;
  }

  next(itemJson: string, options: SendOptions = { droppable: true }): boolean {
    if (this.done) return false;
    return this.connection.send(this.connection.wire.streamItem(this.invocationId, { json: itemJson }), options);
  }

  /** An item given as a value (a MessagePack connection's binary block). */
  nextValue(item: unknown, options: SendOptions = { droppable: true }): boolean {
    if (this.done) return false;
    return this.connection.send(this.connection.wire.streamItem(this.invocationId, { value: item }), options);
  }

  /** Ends the stream from the server side; the client's subscriber sees `complete` or `error`. */
  complete(error?: string): void {
    if (this.finish()) this.connection.send(this.connection.wire.completion(this.invocationId, error ? { error } : {}));
  }

  onCancel(handler: () => void): void {
    this.cancelHandlers.push(handler);
  }

  /** The client cancelled: stop, and answer with a Completion the client ignores. */
  cancel(): void {
    if (!this.finish()) return;
    for (const handler of this.cancelHandlers) handler();
    this.connection.send(this.connection.wire.completion(this.invocationId));
  }

  /** The connection ended: stop without a word. */
  abandon(): void {
    if (!this.finish()) return;
    for (const handler of this.cancelHandlers) handler();
  }

  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.connection.streams.delete(this.invocationId);
    return true;
  }
}
