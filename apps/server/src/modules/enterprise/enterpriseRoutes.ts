import { objectEnvelope, statisticsSchema } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { ok } from '../../http/envelope.js';
import { loadStatistics } from './statisticsRepository.js';

const tags = ['Enterprise'];
const security = [{ bearerAuth: [] }];

export const enterpriseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Statistics',
    { schema: { tags, security, summary: 'Counts for the dashboard, over the caller scope', response: { 200: objectEnvelope(statisticsSchema) } } },
    // Online terminals arrive with the real-time issue; until then nobody is online.
    async (request) => ok(await loadStatistics(app.deps.db, authOf(request).scope, 0)),
  );
};
