import {
  bChangeRoomSchema,
  changeChannelNameSchema,
  channelBriefSchema,
  channelRowSchema,
  channelTreeNodeSchema,
  deleteChannelSchema,
  emptyEnvelopeSchema,
  listEnvelope,
  objectEnvelope,
  queryChannelSchema,
  queryGroupSchema,
  saveChannelSchema,
  updateChannelSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../auth/authPlugin.js';
import { done, list, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { queryChannels } from './channelQueries.js';
import { batchChangeRooms, createChannel, removeChannel, updateChannel } from './channelService.js';
import { queryGroup } from './channelTree.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['THChannel'];
const security = [{ bearerAuth: [] }];

/** Channels: create, edit, rename, delete, batch change, list and tree (prefix /api/THChannel). */
export const channelRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.post(
    '/SaveChannel',
    {
      schema: {
        tags,
        security,
        summary: 'Create a channel without members (eid, cname, ctypeid, note)',
        body: saveChannelSchema,
        response: { 200: objectEnvelope(channelRowSchema) },
      },
    },
    async (request) => ok(await createChannel(serviceContext(request), request.body)),
  );

  app.post(
    '/UpdateChannel',
    {
      schema: {
        tags,
        security,
        summary: 'Edit a channel (form); absent fields stay as they are',
        body: updateChannelSchema,
        response: { 200: objectEnvelope(channelRowSchema) },
      },
    },
    async (request) => ok(await updateChannel(serviceContext(request), request.body)),
  );

  app.post(
    '/ChangeChannelName',
    {
      schema: {
        tags,
        security,
        summary: 'Rename a channel (eid, cid, channelName)',
        body: changeChannelNameSchema,
        response: { 200: objectEnvelope(channelRowSchema) },
      },
    },
    async (request) => {
      const { eid, cid, channelName } = request.body;
      return ok(await updateChannel(serviceContext(request), { eid, cid, cname: channelName }));
    },
  );

  app.delete(
    '/DeleteChannel',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a channel and its memberships (eid, cid in the query)',
        querystring: deleteChannelSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await removeChannel(serviceContext(request), request.query.cid, request.query.eid);
      return done();
    },
  );

  app.post(
    '/BChangeRoom',
    {
      schema: {
        tags,
        security,
        summary: 'Set the priority and/or type of several channels (cids, priority, typeid), all or nothing',
        body: bChangeRoomSchema,
        response: { 200: objectEnvelope(z.object({ changed: z.number().int() })) },
      },
    },
    async (request) => ok(await batchChangeRooms(serviceContext(request), request.body)),
  );

  app.get(
    '/QueryChannel',
    {
      schema: {
        tags,
        security,
        summary: 'Channels of an enterprise; with uid, each with IsMember and MemberPriority of that user',
        querystring: queryChannelSchema,
        response: { 200: listEnvelope(channelBriefSchema) },
      },
    },
    async (request) => {
      const { rows, total } = await queryChannels(app.deps.db, authOf(request).scope, request.query);
      return list(rows, total);
    },
  );

  app.get(
    '/QueryGroup',
    {
      schema: {
        tags,
        security,
        summary: 'The channel tree (eid): channel nodes, or with cid one page of its member nodes',
        querystring: queryGroupSchema,
        response: { 200: listEnvelope(channelTreeNodeSchema) },
      },
    },
    async (request) => {
      const { nodes, total } = await queryGroup(app.deps.db, authOf(request).scope, request.query);
      return list(nodes, total);
    },
  );
});
