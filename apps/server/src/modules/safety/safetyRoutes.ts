import {
  emptyEnvelopeSchema,
  objectEnvelope,
  safetySettingsQuerySchema,
  safetySettingsSaveSchema,
  safetySettingsSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { done, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { syncPlugin } from '../../http/syncPlugin.js';
import { safetySettingsOf, saveSafetySettings } from './safetyService.js';

const tags = ['Safety'];
const security = [{ bearerAuth: [] }];

/** `POST /api/Safety/Settings` and `GET /api/Safety/Settings?U_ID=` (prefix /api/Safety). */
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
      const E_ID = await saveSafetySettings(serviceContext(request), request.body);
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
});
