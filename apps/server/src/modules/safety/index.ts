import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { safetyRoutes } from './safetyRoutes.js';

export { SafetyWatch, type SafetyPeer, type SafetyWatchOptions } from './safetyWatch.js';
export { AlarmEscalation } from './alarmEscalation.js';

/** `/api/Safety/*`: lone-worker and no-movement settings (issue 32). */
export const safetyModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(safetyRoutes, { prefix: '/api/Safety' });
};
