import {
  enterpriseDetailSchema,
  idParamSchema,
  objectEnvelope,
  switchWorkingSchema,
  workingEnterpriseSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { AppError } from '../../http/AppError.js';
import { ok } from '../../http/envelope.js';
import { enterpriseDetail } from './enterpriseRepository.js';
import { switchWorking, workingInfo } from './enterpriseService.js';
import { serviceContext } from '../../core/serviceContext.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Enterprise'];
const security = [{ bearerAuth: [] }];

/** Enterprise detail and the working-enterprise switch of the console's top bar (prefix /api/Enterprise). */
export const enterpriseRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Entitys/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One enterprise of the scope with UserCount, Balance and ChildCount',
        params: idParamSchema,
        response: { 200: objectEnvelope(enterpriseDetailSchema) },
      },
    },
    async (request) => {
      const detail = await enterpriseDetail(app.deps.db, authOf(request).scope, request.params.id);
      if (!detail) throw AppError.notFound();
      return ok(detail);
    },
  );

  app.get(
    '/Working',
    {
      schema: {
        tags,
        security,
        summary: 'The own and the working enterprise, and the enterprises the account may switch to',
        response: { 200: objectEnvelope(workingEnterpriseSchema) },
      },
    },
    async (request) => ok(await workingInfo(serviceContext(request))),
  );

  app.post(
    '/SwitchWorking',
    {
      schema: {
        tags,
        security,
        summary: 'Work in another enterprise of the own scope from the next request on (this session only)',
        body: switchWorkingSchema,
        response: { 200: objectEnvelope(workingEnterpriseSchema) },
      },
    },
    async (request) => ok(await switchWorking(serviceContext(request), request.body.E_ID)),
  );
});
