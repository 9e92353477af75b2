import { AudioFrame, TalkLimits, VideoFrame, VideoLimits } from '@intercom/contract';

/**
 * The binary frames of `/terminal` (docs/terminal-protocol.md "Audio frames" and "Video frames"),
 * big-endian, the only code that lays them out:
 *
 * - audio up    `kind u8 = 1 · cid u32 · seq u16 · Opus packet`
 * - audio down  `kind u8 = 1 · cid u32 · speaker u32 · seq u16 · Opus packet`
 * - video up    `kind u8 = 2 · codec u8 · timestamp u32 · payload`
 * - video down  `kind u8 = 2 · U_ID u32 · codec u8 · timestamp u32 · payload`
 *
 * Decoders are strict (null for a wrong kind, a header alone, a payload over the contract's limit, an
 * audio frame for cid 0) and copy nothing: the packet or payload is a view into the frame, and the
 * header is read byte by byte (no DataView per frame), since the server's relay decodes every frame.
 * Encoders write whatever they are given (seq modulo 2^16, cid, speaker, U_ID and timestamp modulo
 * 2^32), so tests and tools can also build the frames a server must refuse.
 */

/** Where an encoder puts a frame: the server passes `Buffer.allocUnsafe` (no zero fill, a Buffer for ws). */
export type FrameAlloc<T extends Uint8Array> = (bytes: number) => T;

/** Without an allocator, an encoder returns a plain Uint8Array (what a browser's WebSocket sends). */
const plainBytes = (bytes: number) => new Uint8Array(bytes);

export interface AudioUp<T extends Uint8Array = Uint8Array> {
  cid: number;
  seq: number;
  opus: T;
}

export interface AudioDown<T extends Uint8Array = Uint8Array> {
  cid: number;
  /** The talker's U_ID; 0 for a dispatcher seat. */
  speaker: number;
  seq: number;
  opus: T;
}

export interface VideoUp<T extends Uint8Array = Uint8Array> {
  codec: number;
  /** Capture time in epoch ms modulo 2^32. */
  timestamp: number;
  payload: T;
}

export interface VideoDown<T extends Uint8Array = Uint8Array> extends VideoUp<T> {
  /** The terminal whose picture it is. */
  uid: number;
}

/** Largest frame of each layout: its header and the contract's largest packet or payload. */
export const FrameLimits = {
  audioUpBytes: AudioFrame.upHeaderBytes + TalkLimits.maxOpusBytes,
  audioDownBytes: AudioFrame.downHeaderBytes + TalkLimits.maxOpusBytes,
  videoUpBytes: VideoFrame.upHeaderBytes + VideoLimits.maxFrameBytes,
  videoDownBytes: VideoFrame.downHeaderBytes + VideoLimits.maxFrameBytes,
} as const;

/** The first byte: `AudioFrame.kindOpus`, `VideoFrame.kindVideo`, or anything a peer sent; undefined when empty. */
export function frameKind(frame: Uint8Array): number | undefined {
  return frame[0];
}

export function encodeAudioUp(cid: number, seq: number, opus: Uint8Array): Uint8Array<ArrayBuffer>;
export function encodeAudioUp<T extends Uint8Array>(
  cid: number,
  seq: number,
  opus: Uint8Array,
  alloc: FrameAlloc<T>,
): T;
export function encodeAudioUp(
  cid: number,
  seq: number,
  opus: Uint8Array,
  alloc: FrameAlloc<Uint8Array> = plainBytes,
): Uint8Array {
  const frame = alloc(AudioFrame.upHeaderBytes + opus.length);
  frame[0] = AudioFrame.kindOpus;
  writeU32(frame, 1, cid);
  writeU16(frame, 5, seq);
  frame.set(opus, AudioFrame.upHeaderBytes);
  return frame;
}

export function decodeAudioUp<T extends Uint8Array>(frame: T): AudioUp<T> | null {
  if (!fits(frame, AudioFrame.kindOpus, AudioFrame.upHeaderBytes, FrameLimits.audioUpBytes)) return null;
  const cid = readU32(frame, 1);
  if (cid === 0) return null;
  return { cid, seq: readU16(frame, 5), opus: view(frame, AudioFrame.upHeaderBytes) };
}

/**
 * Built once per talker frame and shared by every listener: one allocation holding header and packet,
 * so the socket writes it in one piece.
 */
export function encodeAudioDown(cid: number, speaker: number, seq: number, opus: Uint8Array): Uint8Array<ArrayBuffer>;
export function encodeAudioDown<T extends Uint8Array>(
  cid: number,
  speaker: number,
  seq: number,
  opus: Uint8Array,
  alloc: FrameAlloc<T>,
): T;
export function encodeAudioDown(
  cid: number,
  speaker: number,
  seq: number,
  opus: Uint8Array,
  alloc: FrameAlloc<Uint8Array> = plainBytes,
): Uint8Array {
  const frame = alloc(AudioFrame.downHeaderBytes + opus.length);
  frame[0] = AudioFrame.kindOpus;
  writeU32(frame, 1, cid);
  writeU32(frame, 5, speaker);
  writeU16(frame, 9, seq);
  frame.set(opus, AudioFrame.downHeaderBytes);
  return frame;
}

export function decodeAudioDown<T extends Uint8Array>(frame: T): AudioDown<T> | null {
  if (!fits(frame, AudioFrame.kindOpus, AudioFrame.downHeaderBytes, FrameLimits.audioDownBytes)) return null;
  const cid = readU32(frame, 1);
  if (cid === 0) return null;
  return {
    cid,
    speaker: readU32(frame, 5),
    seq: readU16(frame, 9),
    opus: view(frame, AudioFrame.downHeaderBytes),
  };
}

export function encodeVideoUp(codec: number, timestamp: number, payload: Uint8Array): Uint8Array<ArrayBuffer>;
export function encodeVideoUp<T extends Uint8Array>(
  codec: number,
  timestamp: number,
  payload: Uint8Array,
  alloc: FrameAlloc<T>,
): T;
export function encodeVideoUp(
  codec: number,
  timestamp: number,
  payload: Uint8Array,
  alloc: FrameAlloc<Uint8Array> = plainBytes,
): Uint8Array {
  const frame = alloc(VideoFrame.upHeaderBytes + payload.length);
  frame[0] = VideoFrame.kindVideo;
  frame[1] = codec;
  writeU32(frame, 2, timestamp);
  frame.set(payload, VideoFrame.upHeaderBytes);
  return frame;
}

/** The codec is not checked here: which codecs are acceptable depends on what the terminal announced. */
export function decodeVideoUp<T extends Uint8Array>(frame: T): VideoUp<T> | null {
  if (!fits(frame, VideoFrame.kindVideo, VideoFrame.upHeaderBytes, FrameLimits.videoUpBytes)) return null;
  return { codec: frame[1] as number, timestamp: readU32(frame, 2), payload: view(frame, VideoFrame.upHeaderBytes) };
}

/** Built once per terminal frame and shared by every viewer, like `encodeAudioDown`. */
export function encodeVideoDown(
  uid: number,
  codec: number,
  timestamp: number,
  payload: Uint8Array,
): Uint8Array<ArrayBuffer>;
export function encodeVideoDown<T extends Uint8Array>(
  uid: number,
  codec: number,
  timestamp: number,
  payload: Uint8Array,
  alloc: FrameAlloc<T>,
): T;
export function encodeVideoDown(
  uid: number,
  codec: number,
  timestamp: number,
  payload: Uint8Array,
  alloc: FrameAlloc<Uint8Array> = plainBytes,
): Uint8Array {
  const frame = alloc(VideoFrame.downHeaderBytes + payload.length);
  frame[0] = VideoFrame.kindVideo;
  writeU32(frame, 1, uid);
  frame[5] = codec;
  writeU32(frame, 6, timestamp);
  frame.set(payload, VideoFrame.downHeaderBytes);
  return frame;
}

export function decodeVideoDown<T extends Uint8Array>(frame: T): VideoDown<T> | null {
  if (!fits(frame, VideoFrame.kindVideo, VideoFrame.downHeaderBytes, FrameLimits.videoDownBytes)) return null;
  return {
    uid: readU32(frame, 1),
    codec: frame[5] as number,
    timestamp: readU32(frame, 6),
    payload: view(frame, VideoFrame.downHeaderBytes),
  };
}

/** The right kind, a header and at least one byte after it, and no more than the layout's limit. */
function fits(frame: Uint8Array, kind: number, headerBytes: number, maxBytes: number): boolean {
  return frame.length > headerBytes && frame.length <= maxBytes && frame[0] === kind;
}

/** A view of the rest of the frame; subarray keeps the frame's own class (a Buffer stays a Buffer). */
function view<T extends Uint8Array>(frame: T, from: number): T {
  return frame.subarray(from) as T;
}

function readU32(frame: Uint8Array, at: number): number {
  return (
    (frame[at] as number) * 0x100_0000 +
    (((frame[at + 1] as number) << 16) | ((frame[at + 2] as number) << 8) | (frame[at + 3] as number))
  );
}

function readU16(frame: Uint8Array, at: number): number {
  return ((frame[at] as number) << 8) | (frame[at + 1] as number);
}

// Uint8Array stores each value modulo 256, so these write the value modulo 2^32 (2^16) as the layouts say.
function writeU32(frame: Uint8Array, at: number, value: number): void {
  frame[at] = value >>> 24;
  frame[at + 1] = value >>> 16;
  frame[at + 2] = value >>> 8;
  frame[at + 3] = value;
}

function writeU16(frame: Uint8Array, at: number, value: number): void {
  frame[at] = value >>> 8;
  frame[at + 1] = value;
}
