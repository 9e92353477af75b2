import {
  bChangeMemPriSchema,
  changeMemPrioritySchema,
  channelMemberRowSchema,
  listEnvelope,
  memberChangeResultSchema,
  memberChangeSchema,
  objectEnvelope,
  queryCMemberSchema,
  roomChangeSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../auth/authPlugin.js';
import { list, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { queryMembers } from './channelQueries.js';
import { batchMemberPriority, changeMemberPriority, changeMembers, changeRooms } from './memberService.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['THChannel'];
const security = [{ bearerAuth: [] }];
const changed = objectEnvelope(z.object({ CID: z.number().int(), changed: z.number().int() }));

/** Channel members (prefix /api/THChannel). */
export const memberRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.post(
    '/CMemberChange',
    {
      schema: {
        tags,
        security,
        summary:
          'Set, add or remove members of a channel (cid, action set|add|remove, uids, priority), one transaction',
        body: memberChangeSchema,
        response: { 200: objectEnvelope(memberChangeResultSchema) },
      },
    },
    async (request) => ok(await changeMembers(serviceContext(request), request.body)),
  );

  app.post(
    '/URoomChange',
    {
      schema: {
        tags,
        security,
        summary: "Set a user's channels (uid, cids; empty cids leaves every channel)",
        body: roomChangeSchema,
        response: {
          200: objectEnvelope(
            z.object({
              UserID: z.number().int(),
              added: z.number().int(),
              removed: z.number().int(),
              updated: z.number().int(),
              rooms: z.array(z.number().int()),
            }),
          ),
        },
      },
    },
    async (request) => ok(await changeRooms(serviceContext(request), request.body)),
  );

  app.post(
    '/ChangeMemPriority',
    {
      schema: {
        tags,
        security,
        summary: 'Priority (0-7, larger wins the floor) of one member (rid, uid, priority)',
        body: changeMemPrioritySchema,
        response: { 200: changed },
      },
    },
    async (request) => ok(await changeMemberPriority(serviceContext(request), request.body)),
  );

  app.post(
    '/BChangeMemPri',
    {
      schema: {
        tags,
        security,
        summary: 'Priority of several members of one channel (uids, priority, rid), all or nothing',
        body: bChangeMemPriSchema,
        response: { 200: changed },
      },
    },
    async (request) => ok(await batchMemberPriority(serviceContext(request), request.body)),
  );

  app.get(
    '/QueryCMember',
    {
      schema: {
        tags,
        security,
        summary: 'One page of the members of a channel (members=in), of non-members (out) or of all users (all)',
        querystring: queryCMemberSchema,
        response: { 200: listEnvelope(channelMemberRowSchema) },
      },
    },
    async (request) => {
      const { rows, total } = await queryMembers(app.deps.db, authOf(request).scope, request.query);
      return list(rows, total);
    },
  );
});
