import {
  DeviceLimits,
  MessageKeys,
  iccidImportQuerySchema,
  iccidImportReportSchema,
  objectEnvelope,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../http/AppError.js';
import { ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { importIccids } from './iccidImport.js';
import { syncPlugin } from '../../http/syncPlugin.js';

/** Reads a body up to `limit` bytes; one byte more refuses the whole file (4000 device.file_too_large). */
async function readLimited(payload: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limit) {
      payload.resume();
      throw AppError.field('file', MessageKeys.fileTooLarge);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * `POST /api/UserInfo/ImportICCID` in a plugin of its own: its text/plain parser keeps the raw
 * bytes (the UTF-8 check is ours) and applies the import's own size limit.
 */
export const iccidImportRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.addContentTypeParser('text/plain', async (_request: unknown, payload: Readable) =>
    readLimited(payload, DeviceLimits.importMaxBytes),
  );

  app.post(
    '/ImportICCID',
    {
      schema: {
        tags: ['Device'],
        security: [{ bearerAuth: [] }],
        summary: 'Add the ICCIDs of a text file (one per line) to the inventory; report per line',
        consumes: ['text/plain'],
        querystring: iccidImportQuerySchema,
        body: z.instanceof(Buffer, { error: MessageKeys.required }),
        response: { 200: objectEnvelope(iccidImportReportSchema) },
      },
    },
    async (request) => ok(await importIccids(serviceContext(request), request.query, request.body)),
  );
});
