/**
 * A server's binary WebSocket frame (RFC 6455 section 5.2: FIN set, opcode 2, unmasked, no extension
 * bits) around `payload`. The audio relay builds it once per talker frame and writes the same bytes to
 * every listener's socket: a frame to 1,000 listeners costs one framing and 1,000 socket writes, not
 * 1,000 framings, option objects and header buffers in ws's sender (issue 34).
 */
export function webSocketFrame(payload: Uint8Array): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x82;
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
