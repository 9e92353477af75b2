import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gisTypeRoutes } from './gisTypeRoutes.js';

export { assertUserType, listUserTypes } from './userTypes.js';

/** `/api/<Kind>Type/GetMyType`: the type configs (user, channel, ...) of an enterprise. */
export const gisTypeModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(gisTypeRoutes);
};
