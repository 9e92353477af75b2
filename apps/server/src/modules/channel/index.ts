import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { channelEntity } from './channelEntity.js';
import { channelRoutes } from './channelRoutes.js';
import { memberRoutes } from './memberRoutes.js';
import { dispatchRoutes, webChannelRoutes } from './webChannelRoutes.js';

/** `/api/THChannel/*`, `/api/Channel/*`, `/api/THCustDevice/*`: channels, members, dispatch numbers. */
export const channelModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(channelRoutes, { prefix: '/api/THChannel' });
  await app.register(memberRoutes, { prefix: '/api/THChannel' });
  await app.register(webChannelRoutes, { prefix: '/api/Channel' });
  await app.register(dispatchRoutes, { prefix: '/api/THCustDevice' });
  registerEntityRoutes(app, channelEntity);
};
