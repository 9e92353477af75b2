import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { enterpriseEntity } from './enterpriseEntity.js';
import { enterpriseRoutes } from './enterpriseRoutes.js';
import { locationConfigRoutes } from './locationConfigRoutes.js';
import { statisticsRoutes } from './statisticsRoutes.js';

export { enterpriseIdByCode, lockEnterprise } from './enterpriseRepository.js';
export { assertLicences, reserveLicences } from './licence.js';
export { currentProfile } from './locationRepository.js';

/** `/api/Enterprise/*`: enterprises, statistics, the working-enterprise switch and location profiles. */
export const enterpriseModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(statisticsRoutes, { prefix: '/api/Enterprise' });
  await app.register(enterpriseRoutes, { prefix: '/api/Enterprise' });
  await app.register(locationConfigRoutes, { prefix: '/api/Enterprise' });
  registerEntityRoutes(app, enterpriseEntity);
};
