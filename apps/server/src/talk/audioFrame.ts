import { AudioFrame, TalkLimits } from '@intercom/contract';

/** An upstream frame's header fields; the Opus packet is `data.subarray(AudioFrame.upHeaderBytes)`. */
export interface UpFrame {
  cid: number;
  seq: number;
}

/** Reads `kind 1 · cid u32 · seq u16 · Opus`; null when the frame is not one (wrong kind, no packet, too big). */
export function readUpFrame(data: Buffer): UpFrame | null {
  if (data.length <= AudioFrame.upHeaderBytes || data.length > AudioFrame.upHeaderBytes + TalkLimits.maxOpusBytes) {
    return null;
  }
  if (data[0] !== AudioFrame.kindOpus) return null;
  const cid = data.readUInt32BE(1);
  if (cid === 0) return null;
  return { cid, seq: data.readUInt16BE(5) };
}

/**
 * The downstream frame `kind 1 · cid u32 · speaker u32 · seq u16 · Opus`, built once per talker
 * frame and shared by every listener (one allocation, header and packet in one write).
 */
export function downFrame(cid: number, speaker: number, seq: number, opus: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(AudioFrame.downHeaderBytes + opus.length);
  frame[0] = AudioFrame.kindOpus;
  frame.writeUInt32BE(cid, 1);
  frame.writeUInt32BE(speaker, 5);
  frame.writeUInt16BE(seq, 9);
  opus.copy(frame, AudioFrame.downHeaderBytes);
  return frame;
}
