import { VideoFrame } from '@intercom/contract';
import type { TalkVideoFrame } from './talkTypes';

/**
 * Reads a kind-2 frame of the server-to-viewer layout (kind u8 · U_ID u32 · codec u8 · timestamp u32 ·
 * payload, big-endian); null for anything else. The payload is a view, not a copy.
 */
export function parseVideoFrame(data: ArrayBuffer): TalkVideoFrame | null {
  if (data.byteLength <= VideoFrame.downHeaderBytes) return null;
  const view = new DataView(data);
  if (view.getUint8(0) !== VideoFrame.kindVideo) return null;
  return {
    uid: view.getUint32(1),
    codec: view.getUint8(5),
    timestamp: view.getUint32(6),
    payload: new Uint8Array(data, VideoFrame.downHeaderBytes),
  };
}
