/**
 * The part of a WebSocket that AgentClient uses: the browser's `WebSocket` and the `ws` package's
 * both have it, so the console, the agent's tests, the bench and the browser tests share one client.
 */
export interface AgentSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (both implementations share the numbers). */
  readonly readyState: number;
  /** `arraybuffer` in a browser (its default `blob` is asynchronous); `ws` may keep `nodebuffer`. */
  binaryType: string;
  send(text: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ readonly data: unknown }> | null;
  /** Some fakes call it with no event: treated as an abnormal close (1006). */
  onclose: Handler<{ readonly code: number; readonly reason: string } | undefined> | null;
  onerror: Handler<unknown> | null;
}

/**
 * An event handler checked bivariantly, as methods are: the browser's handler takes its
 * `MessageEvent`, `ws`'s its own, and both must fit one property type.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** `readyState` of an open socket. */
export const SOCKET_OPEN = 1;

/** The close code of a socket that went without a close frame (refused, dropped, or a fake's bare close). */
export const CLOSE_ABNORMAL = 1006;
