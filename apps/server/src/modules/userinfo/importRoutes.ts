import {
  MessageKeys,
  objectEnvelope,
  userImportProgressQuerySchema,
  userImportProgressSchema,
  userImportQuerySchema,
  userImportReportSchema,
  userImportTemplateQuerySchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { releaseHeap } from '../../core/releaseHeap.js';
import { serviceContext } from '../../core/serviceContext.js';
import { ok } from '../../http/envelope.js';
import { syncPlugin } from '../../http/syncPlugin.js';
import { importLang } from './importMessages.js';
import { ImportProgressBoard } from './importProgress.js';
import { multipartFile, readBody } from './importMultipart.js';
import { importTemplate } from './importTemplate.js';
import { importUsers } from './userImport.js';

const tags = ['UserInfo'];
const security = [{ bearerAuth: [] }];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** An import file this big (about 3,500 rows) leaves enough garbage to collect once it is answered. */
const RELEASE_AFTER_BYTES = 256 * 1024;

/**
 * `GET /api/UserInfo/ImportTemplate`, `POST /api/UserInfo/Import` and `GET /api/UserInfo/ImportProgress`
 * (issue 33), in a plugin of their own: its multipart parser keeps the file's raw bytes under the
 * import's size limit.
 */
export const importRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  const board = new ImportProgressBoard(app.deps.realtime.bus);
  app.addHook('onClose', () => board.close());
  app.addContentTypeParser('multipart/form-data', async (_request: unknown, payload: Readable) => readBody(payload));
  // After a big import is answered (written, checked or refused), its garbage is collected at once
  // instead of adding to the next import's (docs/decisions.md, "Heap released after a big import").
  app.addHook('onResponse', async (request) => {
    if (!Buffer.isBuffer(request.body) || request.body.length < RELEASE_AFTER_BYTES) return;
    const released = await releaseHeap();
    if (released) request.log.info({ heap: released }, 'heap released after a user import');
  });

  app.get(
    '/ImportTemplate',
    {
      schema: {
        tags,
        security,
        summary: 'Template of a user import: the header row in the language asked and one example row',
        querystring: userImportTemplateQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, lang } = request.query;
      return reply
        .header('Content-Type', format === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="users-import-${lang}.${format}"`)
        .send(await importTemplate(format, lang));
    },
  );

  app.post(
    '/Import',
    {
      schema: {
        tags,
        security,
        summary: 'Create or update users (and SIMs, departments, channel memberships) from a CSV or XLSX file',
        consumes: ['multipart/form-data'],
        querystring: userImportQuerySchema,
        body: z.instanceof(Buffer, { error: MessageKeys.required }),
        response: { 200: objectEnvelope(userImportReportSchema) },
      },
    },
    async (request) => {
      const file = multipartFile(request.headers['content-type'], request.body);
      const lang = importLang(request.query.lang, request.headers['accept-language']);
      const ctx = serviceContext(request);
      const report = board.reporter(ctx.scope.rootId, ctx.account.A_ID, request.query.importId);
      return ok(await importUsers(ctx, request.query, lang, file, report));
    },
  );

  app.get(
    '/ImportProgress',
    {
      schema: {
        tags,
        security,
        summary: 'How far an import of this account is, by the importId it was started with (pending: not known yet)',
        querystring: userImportProgressQuerySchema,
        response: { 200: objectEnvelope(userImportProgressSchema) },
      },
    },
    (request) => {
      const ctx = serviceContext(request);
      return Promise.resolve(ok(board.progress(ctx.scope.rootId, ctx.account.A_ID, request.query.importId)));
    },
  );
});
