import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** What an outbox writes to: a WebSocket's `send` (binary for a Buffer, text for a string). */
export interface BinarySink {
  send(data: Buffer | string, callback: (error?: Error) => void): void;
}

/** RFC 6455 section 5.2 opcodes of the data frames a server sends. */
const OPCODES = { text: 0x1, binary: 0x2 } as const;

/**
 * A server's WebSocket data frame (RFC 6455 section 5.2: FIN set, unmasked, no extension bits)
 * around `payload`, built once and written as it is to many sockets: the audio relay's talker frame
 * to 1,000 listeners, the hub's push to every console of a scope, costs one framing and one socket
 * write each, not a framing, option object and header buffer each in ws's sender (issue 34). Only
 * for sockets that negotiated no compression: ws then writes synchronously, so a frame written past
 * it keeps its place among ws's own frames.
 */
export function webSocketFrame(payload: Uint8Array, kind: keyof typeof OPCODES = 'binary'): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x80 | OPCODES[kind];
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.set(payload, header);
  return frame;
}

/** The TCP socket under a ws WebSocket, to write prebuilt frames to (ws keeps it as `_socket`). */
export function tcpSocketOf(socket: WebSocket): Socket | undefined {
  return (socket as unknown as { _socket?: Socket })._socket;
}
