export {
  FrameLimits,
  decodeAudioDown,
  decodeAudioUp,
  decodeVideoDown,
  decodeVideoUp,
  encodeAudioDown,
  encodeAudioUp,
  encodeVideoDown,
  encodeVideoUp,
  frameKind,
  type AudioDown,
  type AudioUp,
  type FrameAlloc,
  type VideoDown,
  type VideoUp,
} from './frames.js';
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
