import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { organEntity } from './organEntity.js';
import { organRoutes } from './organRoutes.js';

export { findOrgan, organsOf, subtreeIds } from './organRepository.js';

/** `/api/Organ/*`: departments and the organisation tree. */
export const organModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(organRoutes, { prefix: '/api/Organ' });
  registerEntityRoutes(app, organEntity);
};
