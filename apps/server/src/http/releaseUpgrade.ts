import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';

/**
 * Lets go of the HTTP objects of a WebSocket's upgrade, which @fastify/websocket would otherwise keep
 * for as long as the socket lives: the ServerResponse it made for routing stays the TCP socket's
 * `_httpMessage` (it is never finished), and the 'error' listener it adds closes over the Fastify
 * request and reply (with their logger, headers and route context). For a socket that lives for
 * hours, among thousands, that is a third of its heap: 14.2 KiB a `/terminal` connection before,
 * 9.2 KiB after (docs/benchmarks.md, "10,000 terminals on one instance").
 *
 * The socket's errors (ws reports a frame above `maxPayload` or bad UTF-8 there, and closes the
 * socket itself) then go to `onError` instead of the library's handler.
 */
export function releaseUpgrade(socket: WebSocket, raw: IncomingMessage, onError: (error: Error) => void): void {
  const tcp = raw.socket as IncomingMessage['socket'] & { _httpMessage?: ServerResponse | null };
  tcp._httpMessage?.detachSocket(tcp);
  socket.removeAllListeners('error');
  socket.on('error', onError);
}
