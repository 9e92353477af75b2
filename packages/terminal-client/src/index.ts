export * from './frames.js';
export { SOCKET_OPEN, type SocketLike } from './socketLike.js';
export {
  TerminalClientErrors,
  TerminalRequestError,
  TerminalSocket,
  type ReconnectOptions,
  type TerminalAck,
  type TerminalErrorReply,
  type TerminalRequest,
  type TerminalSocketEvents,
  type TerminalSocketOptions,
} from './terminalSocket.js';
