import type { HubConnectionLike } from './HubController';

/** A hub connection tests drive: it records invocations and lets the test fire the client's events. */
export class FakeHubConnection implements HubConnectionLike {
  invoked: string[] = [];
  /** Each invocation's method and arguments. */
  invocations: unknown[][] = [];
  stopped = false;
  startResult: Promise<void> = Promise.resolve();
  private handlers = new Map<string, (argument: unknown) => void>();
  private closeCallback: (error?: Error) => void = () => undefined;
  private reconnectingCallback: (error?: Error) => void = () => undefined;
  private reconnectedCallback: () => void = () => undefined;

  /** The bearer tokens its starts were given (a real connection asks `accessTokenFactory`). */
  tokens: string[] = [];

  constructor(private readonly token?: () => Promise<string>) {}

  start = async () => {
    if (this.token) this.tokens.push(await this.token());
    return this.startResult;
  };
  stop = () => {
    this.stopped = true;
    return Promise.resolve();
  };
  invoke = (method: string, ...args: unknown[]) => {
    this.invoked.push(method);
    this.invocations.push([method, ...args]);
    return Promise.resolve({});
  };
  on(name: string, handler: (argument: unknown) => void) {
    this.handlers.set(name, handler);
  }
  onclose(callback: (error?: Error) => void) {
    this.closeCallback = callback;
  }
  onreconnecting(callback: (error?: Error) => void) {
    this.reconnectingCallback = callback;
  }
  onreconnected(callback: () => void) {
    this.reconnectedCallback = callback;
  }
  push(target: string, argument: unknown) {
    this.handlers.get(target)?.(argument);
  }
  close(error?: Error) {
    this.closeCallback(error);
  }
  loseAndRecover() {
    this.reconnectingCallback(new Error('WebSocket closed'));
    this.reconnectedCallback();
  }
}
