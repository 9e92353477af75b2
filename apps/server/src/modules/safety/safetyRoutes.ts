import {
  emptyEnvelopeSchema,
  objectEnvelope,
  safetyDeleteSchema,
  safetySettingsQuerySchema,
  safetySettingsSaveSchema,
  safetySettingsSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { done, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { syncPlugin } from '../../http/syncPlugin.js';
import { removeSafetySettings, safetySettingsOf, saveSafetySettings } from './safetyService.js';

const tags = ['Safety'];
const security = [{ bearerAuth: [] }];

/**
 * `POST /api/Safety/Settings`, `GET /api/Safety/Settings?U_ID=` and `POST /api/Safety/Delete` (prefix
 * /api/Safety); QueryData and ExportData are generic (safetyEntity).
 */
export const safetyRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.post(
    '/Settings',
    {
      schema: {
        tags,
        security,
        summary: 'Lone-worker and no-movement settings of users, departments or the whole enterprise',
        body: safetySettingsSaveSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      const E_ID = await saveSafetySettings(serviceContext(request), request.body, request.server.deps.clock.now());
      // This instance's terminals follow at once; the others within their cache time (docs/safety.md).
      if (app.hasDecorator('terminals')) app.terminals.service.safety.rulesChanged(E_ID);
      return done();
    },
  );
  app.get(
    '/Settings',
    {
      schema: {
        tags,
        security,
        summary: 'The safety settings in force for one user, and where they come from',
        querystring: safetySettingsQuerySchema,
        response: { 200: objectEnvelope(safetySettingsSchema) },
      },
    },
    async (request) => ok(await safetySettingsOf(serviceContext(request), request.query.U_ID)),
  );
  app.post(
    '/Delete',
    {
      schema: {
        tags,
        security,
        summary: 'Remove stored safety settings of your scope by key (all or none)',
        body: safetyDeleteSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      const changed = await removeSafetySettings(serviceContext(request), request.body.ids);
      if (app.hasDecorator('terminals')) for (const E_ID of changed) app.terminals.service.safety.rulesChanged(E_ID);
      return done();
    },
  );
});
