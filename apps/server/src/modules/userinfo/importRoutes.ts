import {
  objectEnvelope,
  userImportProgressQuerySchema,
  userImportProgressSchema,
  userImportQuerySchema,
  userImportReportSchema,
  userImportTemplateQuerySchema,
} from '@intercom/contract';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { releaseHeap } from '../../core/releaseHeap.js';
import { serviceContext } from '../../core/serviceContext.js';
import { authOf } from '../../auth/authPlugin.js';
import { ok } from '../../http/envelope.js';
import { syncPlugin } from '../../http/syncPlugin.js';
import { importLang } from './importMessages.js';
import { ImportProgressBoard } from './importProgress.js';
import { importUploadOptions, uploadedFile } from './importMultipart.js';
import { ImportReader } from './importReader.js';
import { ImportSlots } from './importSlots.js';
import { importTemplate } from './importTemplate.js';
import { importUsers } from './userImport.js';

const tags = ['UserInfo'];
const security = [{ bearerAuth: [] }];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** An import file this big (about 3,500 rows) leaves enough garbage to collect once it is answered. */
const RELEASE_AFTER_BYTES = 256 * 1024;

/**
 * `GET /api/UserInfo/ImportTemplate`, `POST /api/UserInfo/Import` and `GET /api/UserInfo/ImportProgress`
 * (issue 33), in a plugin of their own: its multipart parser (@fastify/multipart) keeps the file's
 * raw bytes under the import's size, file-count and field limits.
 */
export const importRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  const board = new ImportProgressBoard(app.deps.realtime.bus);
  const settings = app.deps.config.imports;
  const slots = new ImportSlots(settings.maxConcurrent);
  const reader = new ImportReader(settings);
  app.addHook('onClose', async () => {
    board.close();
    await reader.close();
  });
  void app.register(multipart, importUploadOptions);
  /** The requests that carried a big import file. */
  const bigUploads = new WeakSet<FastifyRequest>();
  // After a big import is answered (written, checked or refused), its garbage is collected at once
  // instead of adding to the next import's (docs/decisions.md, "Heap released after a big import").
  app.addHook('onResponse', async (request) => {
    if (!bigUploads.has(request)) return;
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
        response: { 200: objectEnvelope(userImportReportSchema) },
      },
      // The report is built from typed values; checking 20,000 row errors against the schema again
      // (fastify-type-provider-zod's serializer) held the event loop for a few hundred ms.
      serializerCompiler: () => (data) => JSON.stringify(data),
      // A busy answer comes before the upload is read: a refused import costs no buffered file.
      preParsing: (request, _reply, payload, done) => {
        try {
          slots.check(authOf(request).scope.rootId);
          done(null, payload);
        } catch (error) {
          done(error as Error);
        }
      },
    },
    async (request) => {
      const file = await uploadedFile(request);
      if (file.body.length >= RELEASE_AFTER_BYTES) bigUploads.add(request);
      const lang = importLang(request.query.lang, request.headers['accept-language']);
      const ctx = serviceContext(request);
      const leave = slots.enter(ctx.scope.rootId);
      try {
        const report = board.reporter(ctx.scope.rootId, ctx.account.A_ID, request.query.importId);
        const read = (body: Buffer) => reader.read(body, request.log);
        return ok(await importUsers(ctx, request.query, lang, file, read, report));
      } finally {
        leave();
      }
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
