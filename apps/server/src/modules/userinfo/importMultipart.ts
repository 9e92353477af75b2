import type { FastifyMultipartOptions } from '@fastify/multipart';
import { MessageKeys, UserImportKeys, UserImportLimits } from '@intercom/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/AppError.js';

/** The uploaded file of a multipart/form-data body. */
export interface UploadedFile {
  name: string;
  body: Buffer;
}

/**
 * What one import upload may hold (@fastify/multipart, busboy's limits): the file within the
 * import's size limit, one file only, and a few small text fields around it (the console sends none;
 * a form may add some). Past any of them the upload is refused as too large, as the whole body past
 * the file limit plus 64 KiB of envelope was before.
 */
export const importUploadOptions: FastifyMultipartOptions = {
  limits: {
    fileSize: UserImportLimits.maxBytes,
    files: 1,
    fields: 16,
    fieldSize: 4 * 1024,
    parts: 17,
    headerPairs: 16,
  },
};

/** @fastify/multipart's codes of a limit reached. */
const LIMIT_CODES: ReadonlySet<string> = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_PARTS_LIMIT',
]);

/**
 * The part named `file` of the request's multipart/form-data body (RFC 7578), its bytes untouched.
 * Not multipart: 4000 validation.required on `body`, as the route's body schema answered before.
 * No such part, or a body that is not a well-formed form: 4000 userImport.file_missing. A limit of
 * `importUploadOptions` reached: 4000 userImport.file_too_large.
 */
export async function uploadedFile(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw AppError.field('body', MessageKeys.required);
  let file: UploadedFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const body = await part.toBuffer();
      if (part.fieldname === 'file') file ??= { name: (part.filename ?? 'import').slice(0, 200), body };
    }
  } catch (error) {
    // The rest of the body is read and dropped, so the answer is not cut off by an unread upload.
    request.raw.resume();
    const code = (error as { code?: unknown }).code;
    const tooLarge = typeof code === 'string' && LIMIT_CODES.has(code);
    throw AppError.field('file', tooLarge ? UserImportKeys.fileTooLarge : UserImportKeys.fileMissing);
  }
  if (!file) throw AppError.field('file', UserImportKeys.fileMissing);
  return file;
}
