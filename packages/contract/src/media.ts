import { z } from 'zod';
import { Limits } from './limits.js';
import { MessageKeys } from './messages.js';

/** Limits of uploads and recordings (docs/api.md, "Media"). */
export const MediaLimits = {
  /** Largest image UploadImage accepts. */
  imageMaxBytes: 512 * 1024,
  fileNameMax: 255,
  /** How long a recording play URL works (the session must stay alive too). */
  playUrlMs: 12 * 60 * 60_000,
} as const;

/** The two subject images: which config entry each sets and the exact size it must have. */
export const ImageKinds = {
  bg: { code: 'SubjectBg', ...Limits.backgroundImage },
  logo: { code: 'SubjectLogo', ...Limits.logoImage },
} as const;
export type ImageKind = keyof typeof ImageKinds;
export const IMAGE_KINDS = Object.keys(ImageKinds) as ImageKind[];

/** Formats UploadImage accepts, told apart by their first bytes; the stored name takes `ext`. */
export const ImageFormats = {
  png: { ext: 'png', contentType: 'image/png' },
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  webp: { ext: 'webp', contentType: 'image/webp' },
} as const;
export type ImageFormat = keyof typeof ImageFormats;

/**
 * The `fileName` of an upload is only a label for the log: a plain name, no directory part, no
 * control characters. Returns the i18n key of the failure or null.
 */
export function checkUploadFileName(name: string): string | null {
  if (name.length === 0 || [...name].length > MediaLimits.fileNameMax) return MessageKeys.mediaBadFileName;
  const control = [...name].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\u007F');
  if (control || /[/\\]/.test(name) || name === '.' || name === '..' || /^[A-Za-z]:/.test(name)) {
    return MessageKeys.mediaBadFileName;
  }
  return null;
}

/** `POST /api/Media/UploadImage?fileName=&kind=bg|logo`; the body is the image bytes. */
export const uploadImageQuerySchema = z.object({
  fileName: z.string({ error: MessageKeys.required }).superRefine((v, ctx) => {
    const key = checkUploadFileName(v);
    if (key) ctx.addIssue({ code: 'custom', message: key });
  }),
  kind: z.enum(IMAGE_KINDS, { error: MessageKeys.mediaBadKind }),
});

export const uploadImageResultSchema = z.object({
  /** The config entry now holding the image: SubjectBg or SubjectLogo. */
  Code: z.string(),
  /** The stored name (also the entry's value). */
  Value: z.string(),
  /** Where the image is served without a token. */
  url: z.string(),
  format: z.enum(['png', 'jpeg', 'webp']),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
});
export type UploadImageResult = z.infer<typeof uploadImageResultSchema>;

export const MediaLogActions = { subjectImage: 'subject_image' } as const;

/** Recording types: a channel's group call or a one-to-one call. */
export const RecordingTypes = { group: 'group', private: 'private' } as const;

/**
 * One recording: channel and speaker (and, for a private call, the other party) with their names.
 * StartAt is epoch ms, Duration milliseconds, Size bytes of the Ogg Opus file.
 */
export const recordingRowSchema = z.object({
  R_ID: z.number().int(),
  E_ID: z.number().int(),
  RType: z.string(),
  CID: z.number().int().nullable(),
  CName: z.string().nullable(),
  U_ID: z.number().int().nullable(),
  UserName: z.string().nullable(),
  MobilePhone: z.string().nullable(),
  ToU_ID: z.number().int().nullable(),
  ToUserName: z.string().nullable(),
  StartAt: z.number().int(),
  Duration: z.number().int(),
  Size: z.number().int(),
});
export type RecordingRow = z.infer<typeof recordingRowSchema>;

/** `GET /api/Media/RecordingUrl/{id}`: a URL an `<audio>` element can play without a token header. */
export const recordingUrlSchema = z.object({ url: z.string(), expiresAt: z.number().int() });
