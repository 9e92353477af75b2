import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pluginRoutes } from './pluginRoutes.js';

/** `/api/Plugin/*`: data of the plugin pages. */
export const pluginModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(pluginRoutes, { prefix: '/api/Plugin' });
};
