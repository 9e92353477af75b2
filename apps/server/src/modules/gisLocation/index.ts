import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { gisLocationEntity } from './gisLocationEntity.js';
import { gisLocationRoutes } from './gisLocationRoutes.js';
import { trackRoutes } from './trackRoutes.js';

/** `/api/GISLocation/*`: position history, whole tracks and their export, heart rates and the online summary. */
export const gisLocationModule: FastifyPluginAsyncZod = async (app) => {
  registerEntityRoutes(app, gisLocationEntity);
  await app.register(gisLocationRoutes, { prefix: '/api/GISLocation' });
  await app.register(trackRoutes, { prefix: '/api/GISLocation' });
};
