import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { accountRoutes } from './accountRoutes.js';
import { accountsEntity } from './accountsEntity.js';
import { accountsRoutes } from './accountsRoutes.js';

/** `/api/Account/*`: the caller's own account and settings, and console accounts (admin). */
export const accountModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(accountRoutes, { prefix: '/api/Account' });
  await app.register(accountsRoutes, { prefix: '/api/Account' });
  registerEntityRoutes(app, accountsEntity);
};
