import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { webSocketFrame } from '../../src/talk/webSocketFrame.js';

/** ws's own framing (exported by ws, absent from its type definitions). */
const { Sender } = ws as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

// The relay's prebuilt frame must be byte for byte what ws itself would send for the same payload.
describe('webSocketFrame', () => {
  it.each([0, 1, 125, 126, 1_000, 65_535, 65_536, 200_000])('frames a payload of %i bytes as ws does', (bytes) => {
    const payload = Buffer.alloc(bytes, 7);
    if (bytes > 0) payload[bytes - 1] = 9;
    const framed = Buffer.concat(
      Sender.frame(payload, { fin: true, opcode: 2, mask: false, readOnly: true, rsv1: false }),
    );
    expect(webSocketFrame(payload).equals(framed)).toBe(true);
  });
});
