import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { incidentEntity } from './incidentEntity.js';
import { incidentRoutes } from './incidentRoutes.js';

export { openMembershipsOf } from './incidentRepository.js';
export { IncidentWatcher, type IncidentFix, type IncidentSubject } from './incidentWatcher.js';

/** `/api/Incident/*`: zones whose online users are regrouped into a temporary channel (issue 32). */
export const incidentModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(incidentRoutes, { prefix: '/api/Incident' });
  registerEntityRoutes(app, incidentEntity);
};
