import {
  gisOnlineSummarySchema,
  heartRateHisQuerySchema,
  heartRateRowSchema,
  listEnvelope,
  objectEnvelope,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { AppError } from '../../http/AppError.js';
import { list, ok } from '../../http/envelope.js';
import { findUserByPhone } from '../userinfo/index.js';
import { countUsers, heartRatesOf } from './heartRateRepository.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['GISLocation'];
const security = [{ bearerAuth: [] }];

/** Live-data reads beside the generic GISLocation entity (prefix /api/GISLocation). */
export const gisLocationRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/HeartRateHis',
    {
      schema: {
        tags,
        security,
        summary:
          'Heart-rate readings of the user with this phone (in scope), oldest first; H_Time1/H_Time2 bound the time',
        querystring: heartRateHisQuerySchema,
        response: { 200: listEnvelope(heartRateRowSchema) },
      },
    },
    async (request) => {
      const user = await findUserByPhone(app.deps.db, authOf(request).scope, request.query.phone);
      if (!user) throw AppError.notFound();
      const { rows, total } = await heartRatesOf(app.deps.db, { E_ID: user.E_ID, U_ID: user.UserID }, request.query);
      return list(rows, total);
    },
  );

  app.get(
    '/OnlineSummary',
    {
      schema: {
        tags,
        security,
        summary: 'Users, chat-online users and GPS-online users in the caller scope',
        response: { 200: objectEnvelope(gisOnlineSummarySchema) },
      },
    },
    async (request) => {
      const ids = authOf(request).scope.enterpriseIds;
      return ok({
        User: await countUsers(app.deps.db, ids),
        ChatOnline: app.deps.realtime.live.onlineCount(ids),
        GpsOnline: app.deps.realtime.live.gpsOnlineCount(ids),
      });
    },
  );
});
