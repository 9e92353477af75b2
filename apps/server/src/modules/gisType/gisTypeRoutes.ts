import { gisTypeRowSchema, listEnvelope, optionalFormInt, userTypeWithStatesSchema } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../auth/authPlugin.js';
import { list } from '../../http/envelope.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';
import { actorOf } from '../../core/writeSysLog.js';
import { gisTypes, userTypesWithStates } from './gisTypeService.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const security = [{ bearerAuth: [] }];
const querystring = z.object({ eID: optionalFormInt(1, 2 ** 31 - 1) });

/** Type configs of the map: marked points, lines and users (every role). */
export const gisTypeRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  for (const [prefix, kind] of [
    ['GISPoint', 'point'],
    ['GISLine', 'line'],
  ] as const) {
    app.get(
      `/api/${prefix}/GetMyType`,
      {
        schema: {
          tags: [prefix],
          security,
          summary: `${kind === 'point' ? 'Marked-point' : 'Line'} types of the working enterprise (or eID); defaults stored on first use`,
          querystring,
          response: { 200: listEnvelope(gisTypeRowSchema) },
        },
      },
      async (request) => {
        const enterpriseId = enterpriseOf(authOf(request).scope, request.query.eID);
        const { A_ID, Operator, IP } = actorOf(request);
        return list(await gisTypes(app.deps.db, enterpriseId, kind, { A_ID, Operator, IP }));
      },
    );
  }

  app.get(
    '/api/GISUser/GetMyType',
    {
      schema: {
        tags: ['GISUser'],
        security,
        summary: 'User types with their state icons (anchor, size, popup anchor, shadow anchor and size)',
        querystring,
        response: { 200: listEnvelope(userTypeWithStatesSchema) },
      },
    },
    async (request) =>
      list(await userTypesWithStates(app.deps.db, enterpriseOf(authOf(request).scope, request.query.eID))),
  );
});
