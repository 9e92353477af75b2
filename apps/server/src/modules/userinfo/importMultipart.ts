import type { Readable } from 'node:stream';
import { UserImportKeys, UserImportLimits } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';

/** The uploaded file of a multipart/form-data body. */
export interface UploadedFile {
  name: string;
  body: Buffer;
}

/** Room for the form's boundaries, part headers and small fields around the file. */
const ENVELOPE_BYTES = 64 * 1024;

/** Reads the body up to the file limit plus the form's envelope; more refuses the file (4000). */
export async function readBody(payload: Readable): Promise<Buffer> {
  const limit = UserImportLimits.maxBytes + ENVELOPE_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limit) {
      payload.resume();
      throw AppError.field('file', UserImportKeys.fileTooLarge);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The part named `file` of a multipart/form-data body (RFC 7578): the bytes between its headers
 * and the next boundary, untouched. No such part (or no boundary) is 4000 userImport.file_missing.
 */
export function multipartFile(contentType: string | undefined, body: Buffer): UploadedFile {
  const missing = () => AppError.field('file', UserImportKeys.fileMissing);
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw missing();
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const headersStart = start + delimiter.length + 2;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headersStart);
    if (next < 0) break;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd >= 0 && headersEnd < next) {
      const headers = body.subarray(headersStart, headersEnd).toString('utf8');
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      if (/;\s*name="file"/i.test(disposition)) {
        const name = /filename="([^"]*)"/i.exec(disposition)?.[1] ?? 'import';
        const file = body.subarray(headersEnd + 4, next);
        if (file.length > UserImportLimits.maxBytes) throw AppError.field('file', UserImportKeys.fileTooLarge);
        return { name: name.slice(0, 200), body: file };
      }
    }
    start = next + 2;
  }
  throw missing();
}
