import { TERMINAL_PATH, TalkAgentErrors } from '@intercom/contract';
import { SeatError, TerminalSocket } from '@intercom/terminal-client';
import WebSocket from 'ws';

/** What the seat socket may take to open and to answer one request. */
const CONNECT_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 5_000;

/** `http(s)://host:port` of the platform -> its `/terminal` WebSocket URL. */
export function terminalUrlOf(proxy: string): string {
  const url = new URL(proxy);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = TERMINAL_PATH;
  url.search = '';
  return url.toString();
}

/**
 * An open `/terminal` socket to the platform at `proxy`, for one seat login: no reconnect (after a
 * loss the console logs in again, with a new AuthCode). SeatError `server_unreachable` when the
 * platform does not answer within 5 s.
 */
export async function openTerminal(proxy: string): Promise<TerminalSocket> {
  const socket = new TerminalSocket({
    connect: () => new WebSocket(terminalUrlOf(proxy), { handshakeTimeout: CONNECT_TIMEOUT_MS }),
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  try {
    await socket.opened();
    return socket;
  } catch (error) {
    socket.close();
    throw new SeatError(TalkAgentErrors.serverUnreachable, `cannot reach ${proxy}: ${(error as Error).message}`);
  }
}
