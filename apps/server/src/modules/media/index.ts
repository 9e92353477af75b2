import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';

export { recordingsDir } from './recordingFile.js';
import { mediaRoutes } from './mediaRoutes.js';
import { recordingEntity } from './recordingEntity.js';

/** `/api/Media/*` and `/api/Recording/*`: subject images and recording files. */
export const mediaModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(mediaRoutes, { prefix: '/api/Media' });
  registerEntityRoutes(app, recordingEntity);
};
