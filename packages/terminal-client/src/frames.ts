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
 * Encoders take the fields the decoders return, so a relay hands a decoded frame on, and write
 * whatever they are given (seq modulo 2^16, cid, speaker, U_ID and timestamp modulo 2^32), so tests
 * and tools can also build the frames a server must refuse.
 */

/** Where an encoder puts a frame: the server passes `Buffer.allocUnsafe` (no zero fill, a Buffer for ws). */
export type FrameAlloc<T extends Uint8Array> = (bytes: number) => T;

/** What an encoder returns without an allocator: a plain Uint8Array, which a browser's WebSocket sends as is. */
type Bytes = Uint8Array<ArrayBuffer>;
// Typed `never` so it can be the default of any allocator parameter (TypeScript cannot tie it to T's default).
const plain = ((bytes: number) => new Uint8Array(bytes)) as FrameAlloc<never>;

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

export function encodeAudioUp<T extends Uint8Array = Bytes>(up: AudioUp, alloc: FrameAlloc<T> = plain): NoInfer<T> {
  const frame = start(alloc, AudioFrame.kindOpus, AudioFrame.upHeaderBytes, up.opus);
  writeU32(frame, 1, up.cid);
  writeU16(frame, 5, up.seq);
  return frame;
}

export function decodeAudioUp<T extends Uint8Array>(frame: T): AudioUp<T> | null {
  const cid = audioCid(frame, AudioFrame.upHeaderBytes, FrameLimits.audioUpBytes);
  return cid === 0 ? null : { cid, seq: readU16(frame, 5), opus: view(frame, AudioFrame.upHeaderBytes) };
}

/**
 * Built once per talker frame and shared by every listener: one allocation holding header and packet,
 * so the socket writes it in one piece.
 */
export function encodeAudioDown<T extends Uint8Array = Bytes>(to: AudioDown, alloc: FrameAlloc<T> = plain): NoInfer<T> {
  const frame = start(alloc, AudioFrame.kindOpus, AudioFrame.downHeaderBytes, to.opus);
  writeU32(frame, 1, to.cid);
  writeU32(frame, 5, to.speaker);
  writeU16(frame, 9, to.seq);
  return frame;
}

export function decodeAudioDown<T extends Uint8Array>(frame: T): AudioDown<T> | null {
  const cid = audioCid(frame, AudioFrame.downHeaderBytes, FrameLimits.audioDownBytes);
  return cid === 0
    ? null
    : { cid, speaker: readU32(frame, 5), seq: readU16(frame, 9), opus: view(frame, AudioFrame.downHeaderBytes) };
}

export function encodeVideoUp<T extends Uint8Array = Bytes>(up: VideoUp, alloc: FrameAlloc<T> = plain): NoInfer<T> {
  const frame = start(alloc, VideoFrame.kindVideo, VideoFrame.upHeaderBytes, up.payload);
  frame[1] = up.codec;
  writeU32(frame, 2, up.timestamp);
  return frame;
}

/** The codec is not checked here: which codecs are acceptable depends on what the terminal announced. */
export function decodeVideoUp<T extends Uint8Array>(frame: T): VideoUp<T> | null {
  if (!fits(frame, VideoFrame.kindVideo, VideoFrame.upHeaderBytes, FrameLimits.videoUpBytes)) return null;
  return { codec: frame[1] as number, timestamp: readU32(frame, 2), payload: view(frame, VideoFrame.upHeaderBytes) };
}

/** Built once per terminal frame and shared by every viewer, like `encodeAudioDown`. */
export function encodeVideoDown<T extends Uint8Array = Bytes>(to: VideoDown, alloc: FrameAlloc<T> = plain): NoInfer<T> {
  const frame = start(alloc, VideoFrame.kindVideo, VideoFrame.downHeaderBytes, to.payload);
  writeU32(frame, 1, to.uid);
  frame[5] = to.codec;
  writeU32(frame, 6, to.timestamp);
  return frame;
}

export function decodeVideoDown<T extends Uint8Array>(frame: T): VideoDown<T> | null {
  if (!fits(frame, VideoFrame.kindVideo, VideoFrame.downHeaderBytes, FrameLimits.videoDownBytes)) return null;
  const payload = view(frame, VideoFrame.downHeaderBytes);
  return { uid: readU32(frame, 1), codec: frame[5] as number, timestamp: readU32(frame, 6), payload };
}

/** A frame of `kind` with room for its header, the packet or payload already after it. */
function start<T extends Uint8Array>(alloc: FrameAlloc<T>, kind: number, headerBytes: number, body: Uint8Array): T {
  const frame = alloc(headerBytes + body.length);
  frame[0] = kind;
  frame.set(body, headerBytes);
  return frame;
}

/** The right kind, a header and at least one byte after it, and no more than the layout's limit. */
function fits(frame: Uint8Array, kind: number, headerBytes: number, maxBytes: number): boolean {
  return frame.length > headerBytes && frame.length <= maxBytes && frame[0] === kind;
}

/** The channel of an audio frame that fits its layout; 0 (no channel) for anything else. */
function audioCid(frame: Uint8Array, headerBytes: number, maxBytes: number): number {
  return fits(frame, AudioFrame.kindOpus, headerBytes, maxBytes) ? readU32(frame, 1) : 0;
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
