import { z } from 'zod';

/**
 * Video on `/terminal` (issue 14; DESIGN.md section 7, docs/terminal-protocol.md). Binary frames,
 * big-endian. Terminal to server: kind u8 = 2 · codec u8 · timestamp u32 (ms) · payload.
 * Server to viewer (and talk agent to console): kind u8 = 2 · U_ID u32 · codec u8 · timestamp u32 · payload.
 */
export const VideoFrame = {
  kindVideo: 2,
  upHeaderBytes: 6,
  downHeaderBytes: 10,
} as const;

/** Codec byte of a video frame: 1 an H.264 Annex B access unit, 2 a JPEG image. */
export const VideoCodec = { h264: 1, jpeg: 2 } as const;
export const VIDEO_CODEC_NAMES = ['h264', 'jpeg'] as const;
export type VideoCodecName = (typeof VIDEO_CODEC_NAMES)[number];

/** Error codes of `videoApply` (SPEC.md 8: "only video group members support video"). */
export const VideoErrors = {
  notVideoMember: 'not_video_member',
  noVideo: 'no_video',
} as const;

export const VideoLimits = {
  /** Largest frame payload a terminal may send (one access unit or one JPEG); larger ones are `too_large`. */
  maxFrameBytes: 512 * 1024,
  /** Frames a second one terminal may send on average, and at once. */
  framesPerSecond: 60,
  framesBurst: 120,
  /** Streams one dispatcher seat may watch at once (the console's panel shows four). */
  seatStreams: 16,
  /** Codecs a terminal may announce. */
  maxCodecs: VIDEO_CODEC_NAMES.length,
} as const;

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const uid = z.number().int().min(1).max(0xffff_ffff);
const message = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ seq, type: z.literal(type), ...shape });

/** Video messages on `/terminal`: `videoCaps` from a terminal; the others from a dispatcher seat. */
export const videoClientMessages = [
  message('videoCaps', {
    codecs: z
      .array(z.enum(VIDEO_CODEC_NAMES))
      .max(VideoLimits.maxCodecs)
      .refine((list) => new Set(list).size === list.length, { message: 'codecs are listed once each' }),
  }),
  message('videoApply', { uid }),
  message('videoFree', { uid }),
  message('videoList', {}),
] as const;

/** A terminal that can be watched now: the entries of the video list. */
export const videoSourceSchema = z.object({
  uid: z.number().int(),
  /** Its enterprise (the console's list covers a scope of several). */
  E_ID: z.number().int(),
  name: z.string(),
  codecs: z.array(z.enum(VIDEO_CODEC_NAMES)),
});
export type VideoSource = z.infer<typeof videoSourceSchema>;

/** What the server sends about video: to a terminal (start, stop) and to seats (online, offline). */
export type VideoServerMessage =
  | { type: 'videoStart'; codec: VideoCodecName }
  | { type: 'videoStop' }
  | { type: 'videoOnline'; uid: number; name: string; codecs: VideoCodecName[] }
  | { type: 'videoOffline'; uid: number };

/** One entry of the hub's `Video` delta: a source that came (`online` true) or went. */
export const videoChangeSchema = videoSourceSchema.extend({ online: z.boolean() });
export type VideoChange = z.infer<typeof videoChangeSchema>;

/**
 * Whether a frame starts a picture a decoder can begin with: every JPEG; an H.264 access unit holding
 * an IDR slice (NAL type 5). Annex B start codes are 00 00 01 or 00 00 00 01.
 */
export function isVideoKeyFrame(codec: number, payload: Uint8Array): boolean {
  if (codec === VideoCodec.jpeg) return true;
  if (codec !== VideoCodec.h264) return false;
  for (let i = 0; i + 3 < payload.length; i += 1) {
    if (payload[i] !== 0 || payload[i + 1] !== 0 || payload[i + 2] !== 1) continue;
    const type = (payload[i + 3] as number) & 0x1f;
    if (type === 5) return true;
    // Slices of a non-IDR picture: the access unit holds no IDR.
    if (type === 1) return false;
    i += 2;
  }
  return false;
}

/** The codec name of a codec byte. */
export function videoCodecName(byte: number): VideoCodecName | undefined {
  return byte === VideoCodec.h264 ? 'h264' : byte === VideoCodec.jpeg ? 'jpeg' : undefined;
}
