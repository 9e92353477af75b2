import {
  channelRowSchema,
  createWebChannelSchema,
  dispatchNoQuerySchema,
  dispatchNoSchema,
  idParamSchema,
  listEnvelope,
  objectEnvelope,
  switchRecordSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { list, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { channelInScope } from './channelRules.js';
import { createChannel, switchRecord } from './channelService.js';
import { dispatchNumbers } from './dispatchNumbers.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Channel'];
const security = [{ bearerAuth: [] }];

/** /api/Channel calls beyond the generic ones. */
export const webChannelRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Entitys/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One channel with its MemberCount',
        params: idParamSchema,
        response: { 200: objectEnvelope(channelRowSchema) },
      },
    },
    async (request) => ok(await channelInScope(app.deps.db, authOf(request).scope, request.params.id)),
  );

  app.post(
    '/CreateWebChannel',
    {
      schema: {
        tags,
        security,
        summary: 'Create a channel with its members (form; uids not empty), one transaction',
        body: createWebChannelSchema,
        response: { 200: objectEnvelope(channelRowSchema) },
      },
    },
    async (request) => ok(await createChannel(serviceContext(request), request.body)),
  );

  app.post(
    '/SwitchRecord',
    {
      schema: {
        tags,
        security,
        summary: "Switch a channel's recording (eid, cid, record); on needs the enterprise's RecordEnable",
        body: switchRecordSchema,
        response: { 200: objectEnvelope(channelRowSchema) },
      },
    },
    async (request) => ok(await switchRecord(serviceContext(request), request.body)),
  );
});

export const dispatchRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/DispatchNo',
    {
      schema: {
        tags: ['THCustDevice'],
        security,
        summary: "The enterprise's dispatch seats (one per enabled console account) and their numbers",
        querystring: dispatchNoQuerySchema,
        response: { 200: listEnvelope(dispatchNoSchema) },
      },
    },
    async (request) => list(await dispatchNumbers(app.deps.db, authOf(request), request.query.eid)),
  );
});
