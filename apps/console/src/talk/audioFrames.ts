import { AudioFrame } from '@intercom/contract';

/** A listener's audio frame: kind 1 · cid u32 · speaker u32 · seq u16 · Opus (big-endian). */
export interface HeardFrame {
  cid: number;
  speaker: number;
  seq: number;
  opus: Uint8Array;
}

/** The upstream frame `kind 1 · cid u32 · seq u16 · Opus` for one packet. */
export function packAudioFrame(cid: number, seq: number, opus: Uint8Array): Uint8Array<ArrayBuffer> {
  const frame = new Uint8Array(new ArrayBuffer(AudioFrame.upHeaderBytes + opus.byteLength));
  const view = new DataView(frame.buffer);
  view.setUint8(0, AudioFrame.kindOpus);
  view.setUint32(1, cid);
  view.setUint16(5, seq & 0xffff);
  frame.set(opus, AudioFrame.upHeaderBytes);
  return frame;
}

/** Reads a downstream audio frame; null when it is not one (video frames share the socket). */
export function parseHeardFrame(data: ArrayBuffer): HeardFrame | null {
  if (data.byteLength <= AudioFrame.downHeaderBytes) return null;
  const view = new DataView(data);
  if (view.getUint8(0) !== AudioFrame.kindOpus) return null;
  return {
    cid: view.getUint32(1),
    speaker: view.getUint32(5),
    seq: view.getUint16(9),
    opus: new Uint8Array(data, AudioFrame.downHeaderBytes),
  };
}
