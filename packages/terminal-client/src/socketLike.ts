/**
 * The part of a WebSocket that TerminalSocket uses: both the browser's `WebSocket` and the `ws`
 * package's have it, so one client runs in the console, the talk agent, the simulator and tests.
 */
export interface SocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (both implementations share the numbers). */
  readonly readyState: number;
  /** Bytes queued and not sent yet: a sender of video skips frames while it is high. */
  readonly bufferedAmount: number;
  /** `arraybuffer` in a browser (its default `blob` is asynchronous); `ws` may keep `nodebuffer`. */
  binaryType: string;
  /** A string goes as a text frame, bytes as a binary frame (a browser takes no shared memory). */
  send(data: string | Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ readonly data: unknown }> | null;
  onclose: Handler<{ readonly code: number; readonly reason: string }> | null;
  onerror: Handler<unknown> | null;
}

/**
 * An event handler checked bivariantly, as methods are: the browser's handler takes a
 * `MessageEvent`, `ws`'s its own `MessageEvent`, and both must fit one property type.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** `readyState` of an open socket. */
export const SOCKET_OPEN = 1;
