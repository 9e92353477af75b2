import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { deviceEntity } from './deviceEntity.js';
import { deviceRoutes } from './deviceRoutes.js';
import { iccidImportRoutes } from './iccidImportRoutes.js';
import { importRoutes } from './importRoutes.js';
import { userEntity } from './userEntity.js';
import { userRoutes } from './userRoutes.js';

export { findUser, findUserByPhone, findUsers } from './userRepository.js';
export { checkTargets, type Targets } from './targetUsers.js';

/**
 * `/api/UserInfo/*` and `/api/Device/*`: terminal users and the SIM inventory they are bound to
 * (one module: binding a SIM changes both, and the SIM calls live under /api/UserInfo).
 */
export const userinfoModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(userRoutes, { prefix: '/api/UserInfo' });
  await app.register(iccidImportRoutes, { prefix: '/api/UserInfo' });
  await app.register(importRoutes, { prefix: '/api/UserInfo' });
  await app.register(deviceRoutes, { prefix: '/api' });
  registerEntityRoutes(app, userEntity);
  registerEntityRoutes(app, deviceEntity);
};
