import { AudioFrame } from '@intercom/contract';

/**
 * A terminal's upstream audio frame `kind 1 · cid u32 · seq u16 · Opus` (DESIGN.md section 7), as
 * the simulator, the tests and the benchmarks send it.
 */
export function upFrame(cid: number, seq: number, opus: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(AudioFrame.upHeaderBytes + opus.length);
  frame[0] = AudioFrame.kindOpus;
  frame.writeUInt32BE(cid, 1);
  frame.writeUInt16BE(seq & 0xffff, 5);
  opus.copy(frame, AudioFrame.upHeaderBytes);
  return frame;
}
