import {
  idParamSchema,
  listEnvelope,
  objectEnvelope,
  organDetailSchema,
  orgTreeNodeSchema,
  orgTreeQuerySchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { list, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { organDetail } from './organService.js';
import { organizeList } from './organTree.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Organ'];
const security = [{ bearerAuth: [] }];

/** Department detail and the organisation tree (prefix /api/Organ); Save and Delete are generic. */
export const organRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Entitys/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One department with its ChildCount and UserCount (direct)',
        params: idParamSchema,
        response: { 200: objectEnvelope(organDetailSchema) },
      },
    },
    async (request) => ok(await organDetail(serviceContext(request), request.params.id)),
  );

  app.get(
    '/GetOrganizeList',
    {
      schema: {
        tags,
        security,
        summary: 'Children of one organisation tree node, loaded on demand (users paged by offset/limit)',
        querystring: orgTreeQuerySchema,
        response: { 200: listEnvelope(orgTreeNodeSchema) },
      },
    },
    async (request) => {
      const { nodes, total } = await organizeList(app.deps.db, authOf(request).scope, request.query);
      return list(nodes, total);
    },
  );
});
