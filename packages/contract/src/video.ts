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
