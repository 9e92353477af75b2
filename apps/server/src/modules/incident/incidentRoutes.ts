import {
  emptyEnvelopeSchema,
  incidentCloseSchema,
  incidentCreateSchema,
  incidentCreatedSchema,
  objectEnvelope,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { done, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { syncPlugin } from '../../http/syncPlugin.js';
import { closeIncident, createIncident, type IncidentDeps } from './incidentService.js';

const tags = ['Incident'];
const security = [{ bearerAuth: [] }];

const depsOf = (request: FastifyRequest): IncidentDeps => {
  const { realtime, clock } = request.server.deps;
  return { live: realtime.live, bus: realtime.bus, clock };
};

/** `POST /api/Incident/Create` and `/Close` (prefix /api/Incident); QueryData and ExportData are generic. */
export const incidentRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.post(
    '/Create',
    {
      schema: {
        tags,
        security,
        summary: 'Open an incident zone: a channel of the online users inside it, who follow it as they move',
        body: incidentCreateSchema,
        response: { 200: objectEnvelope(incidentCreatedSchema) },
      },
    },
    async (request) => ok(await createIncident(serviceContext(request), depsOf(request), request.body)),
  );
  app.post(
    '/Close',
    {
      schema: {
        tags,
        security,
        summary: 'Close an incident of your scope: its members leave, its channel is deleted',
        body: incidentCloseSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await closeIncident(serviceContext(request), depsOf(request), request.body.IN_ID);
      return done();
    },
  );
});
