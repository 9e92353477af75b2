import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  Code,
  ImageFormats,
  ImageKinds,
  MediaLimits,
  MediaLogActions,
  MessageKeys,
  STORED_IMAGE_NAME,
  imageUrl,
  type ImageKind,
  type UploadImageResult,
} from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { getSysConfigValue, setSysConfigValue } from '../../core/sysConfigRepository.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { probeImage } from './imageProbe.js';

/** Where uploaded subject images live: DATA_DIR/media, flat, under generated names only. */
export function mediaDir(dataDir: string): string {
  return path.join(dataDir, 'media');
}

export function tooLarge(): AppError {
  return new AppError(Code.Validation, MessageKeys.mediaTooLarge, { maxKB: MediaLimits.imageMaxBytes / 1024 }, [
    { field: 'body', key: MessageKeys.mediaTooLarge },
  ]);
}

/** Format and exact size, by content; the name the client gave plays no part. */
function checkImage(kind: ImageKind, body: unknown) {
  if (!Buffer.isBuffer(body) || body.length === 0) throw AppError.field('body', MessageKeys.mediaBadFormat);
  if (body.length > MediaLimits.imageMaxBytes) throw tooLarge();
  const info = probeImage(body);
  if (!info) throw AppError.field('body', MessageKeys.mediaBadFormat);
  const expected = ImageKinds[kind];
  if (info.width !== expected.width || info.height !== expected.height) {
    const params = {
      width: info.width,
      height: info.height,
      expectedWidth: expected.width,
      expectedHeight: expected.height,
    };
    throw new AppError(Code.Validation, MessageKeys.mediaWrongSize, params, [
      { field: 'body', key: MessageKeys.mediaWrongSize },
    ]);
  }
  return { bytes: body, ...info };
}

/** True when no enterprise's SubjectBg or SubjectLogo names the file any more. */
async function unreferenced(db: Kysely<DB>, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('sys_config')
    .select('E_ID')
    .where('Code', 'in', ['SubjectBg', 'SubjectLogo'])
    .where('Value', '=', name)
    .executeTakeFirst();
  return row === undefined;
}

/**
 * UploadImage: checks everything before anything is stored; writes the file under a generated
 * name (temp file, then rename), then sets SubjectBg/SubjectLogo and logs in one transaction. A
 * failed transaction removes the new file; the replaced file goes once nothing names it.
 */
export async function uploadImage(
  ctx: ServiceContext,
  dataDir: string,
  input: { fileName: string; kind: ImageKind; body: unknown },
): Promise<UploadImageResult> {
  const image = checkImage(input.kind, input.body);
  const { code } = ImageKinds[input.kind];
  const name = `${input.kind}-${randomBytes(16).toString('hex')}.${ImageFormats[image.format].ext}`;
  const dir = mediaDir(dataDir);
  const file = path.join(dir, name);
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  // Owner-only, like the rest of DATA_DIR (db/privateFiles.ts).
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(temp, image.bytes, { flag: 'wx', mode: 0o600 });
  await fs.rename(temp, file);
  let before: string | undefined;
  try {
    before = await ctx.db.transaction().execute(async (trx) => {
      const previous = await getSysConfigValue(trx, ctx.scope, code);
      await setSysConfigValue(trx, ctx.scope, code, name);
      await logChange(trx, ctx, {
        E_ID: ctx.scope.rootId,
        Action: MediaLogActions.subjectImage,
        Target: code,
        Summary: { before: previous ?? '', after: name, fileName: input.fileName, size: image.bytes.length },
      });
      return previous;
    });
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  }
  if (before && before !== name && STORED_IMAGE_NAME.test(before) && (await unreferenced(ctx.db, before))) {
    await fs.rm(path.join(dir, before), { force: true });
  }
  return {
    Code: code,
    Value: name,
    url: imageUrl(name),
    format: image.format,
    width: image.width,
    height: image.height,
    size: image.bytes.length,
  };
}
