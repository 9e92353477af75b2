import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { gisLocationEntity } from './gisLocationEntity.js';
import { gisLocationRoutes } from './gisLocationRoutes.js';

/** `/api/GISLocation/*`: position history, heart rates and the online summary. */
export const gisLocationModule: FastifyPluginAsyncZod = async (app) => {
  registerEntityRoutes(app, gisLocationEntity);
  await app.register(gisLocationRoutes, { prefix: '/api/GISLocation' });
};
