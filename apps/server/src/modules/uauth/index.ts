import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uauthRoutes } from './uauthRoutes.js';

/** `/api/UAuth/*`: console login, token refresh, logout. */
export const uauthModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(uauthRoutes, { prefix: '/api/UAuth' });
};
