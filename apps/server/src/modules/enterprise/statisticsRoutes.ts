import { objectEnvelope, statisticsSchema } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { ok } from '../../http/envelope.js';
import { loadStatistics } from './statisticsRepository.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Enterprise'];
const security = [{ bearerAuth: [] }];

export const statisticsRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Statistics',
    {
      schema: {
        tags,
        security,
        summary: 'Counts for the dashboard, over the caller scope',
        response: { 200: objectEnvelope(statisticsSchema) },
      },
    },
    async (request) => {
      const { scope } = authOf(request);
      return ok(await loadStatistics(app.deps.db, scope, app.deps.realtime.live.onlineCount(scope.enterpriseIds)));
    },
  );
});
