import { emptyEnvelopeSchema, geofenceDeleteSchema } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { done } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { removeGeofences } from './geofenceService.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Geofence'];
const security = [{ bearerAuth: [] }];

/** `POST /api/Geofence/Delete` `{ ids }` (prefix /api/Geofence); QueryData, ExportData and Save are generic. */
export const geofenceRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.post(
    '/Delete',
    {
      schema: {
        tags,
        security,
        summary: 'Delete fences of your scope (all or none)',
        body: geofenceDeleteSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await removeGeofences(serviceContext(request), request.body.ids);
      return done();
    },
  );
});
