import fs from 'node:fs';
import path from 'node:path';
import { Code, MessageKeys } from '@intercom/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import type { Scope } from '../../tenancy/scope.js';

export type ByteRange = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * A `Range` header against a file of `size` bytes. One `bytes=` range is honoured (first-last,
 * first-, -suffix); a malformed or unsatisfiable bytes range is 416; other units and several
 * ranges at once are ignored (the whole file, as RFC 9110 allows).
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: 'full' };
  const spec = (match[1] ?? '').trim();
  if (spec.includes(',')) return { kind: 'full' };
  const parts = /^(\d*)-(\d*)$/.exec(spec);
  if (!parts || (parts[1] === '' && parts[2] === '') || size === 0) return { kind: 'unsatisfiable' };
  const first = parts[1] === '' ? undefined : Number(parts[1]);
  const last = parts[2] === '' ? undefined : Number(parts[2]);
  if (first === undefined) {
    const suffix = last ?? 0;
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  if (first >= size || (last !== undefined && last < first)) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start: first, end: Math.min(last ?? size - 1, size - 1) };
}

/** Where recordings live: DATA_DIR/recordings; FilePath is relative to it. */
export function recordingsDir(dataDir: string): string {
  return path.join(dataDir, 'recordings');
}

export interface RecordingFile {
  R_ID: number;
  E_ID: number;
  FilePath: string;
}

/** A recording of the scope (its file path included), or 4004. */
export async function recordingInScope(db: Kysely<DB>, scope: Scope, id: number): Promise<RecordingFile> {
  const row = await db
    .selectFrom('recording')
    .select(['R_ID', 'E_ID', 'FilePath'])
    .where('R_ID', '=', id)
    .where('E_ID', 'in', [...scope.enterpriseIds])
    .executeTakeFirst();
  if (!row) throw AppError.notFound();
  return { ...row, R_ID: Number(row.R_ID) };
}

/** A recording by id alone, for a play ticket that was signed after a scope check; else 4004. */
export async function recordingById(db: Kysely<DB>, id: number): Promise<RecordingFile> {
  const row = await db
    .selectFrom('recording')
    .select(['R_ID', 'E_ID', 'FilePath'])
    .where('R_ID', '=', id)
    .executeTakeFirst();
  if (!row) throw AppError.notFound();
  return { ...row, R_ID: Number(row.R_ID) };
}

function missing(): AppError {
  return new AppError(Code.NotFound, MessageKeys.recordingFileMissing);
}

/**
 * Sends a recording as audio/ogg with byte ranges (206 + Content-Range, 416 when unsatisfiable),
 * so a player seeks in long files without loading them whole. A path that would leave the
 * recordings directory is treated as a missing file.
 */
export async function sendRecording(
  request: FastifyRequest,
  reply: FastifyReply,
  dataDir: string,
  recording: RecordingFile,
) {
  const root = recordingsDir(dataDir);
  const file = path.resolve(root, recording.FilePath);
  if (!file.startsWith(`${root}${path.sep}`)) throw missing();
  let size: number;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw missing();
    size = stat.size;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw missing();
  }
  const download = (request.query as { download?: string } | undefined)?.download;
  const disposition = download === '1' || download === 'true' ? 'attachment' : 'inline';
  reply
    .header('Content-Type', 'audio/ogg')
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, max-age=3600')
    .header('Content-Disposition', `${disposition}; filename="recording-${recording.R_ID}.ogg"`);
  const range = parseRange(request.headers.range, size);
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Range', `bytes */${size}`)
      .send({ BaseResult: { Code: Code.Validation, Message: MessageKeys.mediaBadRange } });
  }
  if (range.kind === 'full') {
    return reply.header('Content-Length', size).send(fs.createReadStream(file));
  }
  return reply
    .status(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', range.end - range.start + 1)
    .send(fs.createReadStream(file, { start: range.start, end: range.end }));
}
