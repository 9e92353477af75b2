import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { safetyEntity } from './safetyEntity.js';
import { safetyRoutes } from './safetyRoutes.js';

export { SafetyWatch, type SafetyPeer, type SafetyWatchOptions } from './safetyWatch.js';
export { AlarmEscalation } from './alarmEscalation.js';

/** `/api/Safety/*`: lone-worker and no-movement settings, listed and removed (issue 32). */
export const safetyModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(safetyRoutes, { prefix: '/api/Safety' });
  registerEntityRoutes(app, safetyEntity);
};
