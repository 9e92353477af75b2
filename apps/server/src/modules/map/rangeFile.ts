import fs from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a file of `size` bytes; null when unsatisfiable. */
export function parseByteRange(header: string, size: number): { start: number; end: number } | null | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/**
 * A file with Range support, as PMTiles readers need (one range per request; a header that is not a
 * single byte range gets the whole file, as RFC 9110 allows).
 */
export async function sendFileRange(request: FastifyRequest, reply: FastifyReply, file: string) {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return reply.code(404).send({ BaseResult: { Code: 4004, Message: 'error.not_found' } });
  }
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  reply
    .header('Accept-Ranges', 'bytes')
    .header('ETag', etag)
    .header('Cache-Control', 'public, max-age=3600')
    .header('Content-Type', 'application/vnd.pmtiles');
  const header = request.headers.range;
  const range = header ? parseByteRange(header, stat.size) : undefined;
  if (range === null) {
    return reply.code(416).header('Content-Range', `bytes */${stat.size}`).send();
  }
  if (!range) {
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    reply.header('Content-Length', stat.size);
    return reply.send(request.method === 'HEAD' ? '' : fs.createReadStream(file));
  }
  reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`)
    .header('Content-Length', range.end - range.start + 1);
  return reply.send(request.method === 'HEAD' ? '' : fs.createReadStream(file, range));
}
