import fs from 'node:fs/promises';
import path from 'node:path';
import {
  Code,
  ImageFormats,
  MessageKeys,
  MediaLimits,
  STORED_IMAGE_NAME,
  idParamSchema,
  objectEnvelope,
  recordingUrlSchema,
  uploadImageQuerySchema,
  uploadImageResultSchema,
} from '@intercom/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../auth/authPlugin.js';
import { AppError } from '../../http/AppError.js';
import { ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { mediaDir, tooLarge, uploadImage } from './imageUpload.js';
import { sessionAlive, signTicket, verifyTicket } from './playTicket.js';
import { recordingById, recordingInScope, sendRecording } from './recordingFile.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Media'];
const security = [{ bearerAuth: [] }];
const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.values(ImageFormats).map((f) => [f.ext, f.contentType]),
);

/** Subject images and recording files (prefix /api/Media). */
export const mediaRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  const { dataDir } = app.deps.config;

  // The upload body is the raw image. Only this plugin reads these types; the size is counted
  // while reading, so an oversize upload is refused without being held in memory.
  const readImage = async (request: FastifyRequest, payload: AsyncIterable<unknown>) => {
    if (Number(request.headers['content-length'] ?? 0) > MediaLimits.imageMaxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > MediaLimits.imageMaxBytes) throw tooLarge();
      chunks.push(bytes);
    }
    return Buffer.concat(chunks);
  };
  app.addContentTypeParser('application/octet-stream', readImage);
  app.addContentTypeParser(/^image\/[\w.+-]+$/i, readImage);

  app.post(
    '/UploadImage',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary:
          'Upload the subject background (kind=bg, 592x77) or logo (kind=logo, 304x31): raw PNG, JPEG or WebP body',
        querystring: uploadImageQuerySchema,
        body: z.unknown(),
        response: { 200: objectEnvelope(uploadImageResultSchema) },
      },
    },
    async (request) =>
      ok(await uploadImage(serviceContext(request), dataDir, { ...request.query, body: request.body })),
  );

  app.get(
    '/Image/:name',
    {
      schema: {
        tags,
        summary: 'A stored subject image; public, so the login page can show it',
        params: z.object({ name: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!STORED_IMAGE_NAME.test(name)) throw AppError.notFound();
      const bytes = await fs.readFile(path.join(mediaDir(dataDir), name)).catch(() => undefined);
      if (!bytes) throw AppError.notFound();
      return reply
        .header('Content-Type', CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'")
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(bytes);
    },
  );

  app.get(
    '/Recording/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A recording as audio/ogg; honours Range (206, 416); ?download=1 for an attachment',
        params: idParamSchema,
        querystring: z.object({ download: z.string().max(8).optional() }),
      },
    },
    async (request, reply) => {
      const recording = await recordingInScope(app.deps.db, authOf(request).scope, request.params.id);
      return sendRecording(request, reply, dataDir, recording);
    },
  );

  app.get(
    '/RecordingUrl/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A play URL for an <audio> element (no token header needed); valid while the session lives',
        params: idParamSchema,
        response: { 200: objectEnvelope(recordingUrlSchema) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const recording = await recordingInScope(app.deps.db, auth.scope, request.params.id);
      const expiresAt = Date.now() + MediaLimits.playUrlMs;
      const ticket = signTicket(app.deps.loginKey, { R_ID: recording.R_ID, S_ID: auth.session.S_ID, exp: expiresAt });
      return ok({ url: `/api/Media/Play/${ticket}`, expiresAt });
    },
  );

  app.get(
    '/Play/:ticket',
    {
      schema: {
        tags,
        summary: 'A recording through a play URL from RecordingUrl; same Range handling as Recording/{id}',
        params: z.object({ ticket: z.string().max(128) }),
        querystring: z.object({ download: z.string().max(8).optional() }),
      },
    },
    async (request, reply) => {
      const ticket = verifyTicket(app.deps.loginKey, request.params.ticket);
      if (!ticket || !(await sessionAlive(app.deps.db, ticket.S_ID, app.deps.config.sessionIdleMs))) {
        throw new AppError(Code.Forbidden, MessageKeys.mediaTicketInvalid);
      }
      // The ticket was signed after the scope check of RecordingUrl; the recording's own enterprise is the scope.
      const recording = await recordingById(app.deps.db, ticket.R_ID);
      return sendRecording(request, reply, dataDir, recording);
    },
  );
});
