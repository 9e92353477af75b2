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
export { DispatcherSeat, type DispatcherSeatEvents } from './dispatcherSeat.js';
export type { SeatAudio, SeatInfo, SeatLogin, SeatMic } from './dispatcherSeatTypes.js';
export { SeatError } from './dispatcherSeatError.js';
export { seatEndReasonOf, seatEventOf, type SeatEndReason } from './dispatcherSeatEvents.js';
