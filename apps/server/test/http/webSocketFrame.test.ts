import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { webSocketFrame } from '../../src/http/webSocketFrame.js';

/** ws's own framing (exported by ws, absent from its type definitions). */
const { Sender } = ws as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

// A prebuilt frame must be byte for byte what ws itself would send for the same payload.
describe('webSocketFrame', () => {
  const sizes = [0, 1, 125, 126, 1_000, 65_535, 65_536, 200_000];
  const payloadOf = (bytes: number) => {
    const payload = Buffer.alloc(bytes, 7);
    if (bytes > 0) payload[bytes - 1] = 9;
    return payload;
  };
  const wsFrame = (payload: Buffer, opcode: number) =>
    Buffer.concat(Sender.frame(payload, { fin: true, opcode, mask: false, readOnly: true, rsv1: false }));

  it.each(sizes)('frames a binary payload of %i bytes as ws does', (bytes) => {
    const payload = payloadOf(bytes);
    expect(webSocketFrame(payload).equals(wsFrame(payload, 2))).toBe(true);
  });

  it.each(sizes)('frames a text payload of %i bytes as ws does', (bytes) => {
    const payload = payloadOf(bytes);
    expect(webSocketFrame(payload, 'text').equals(wsFrame(payload, 1))).toBe(true);
  });
});
