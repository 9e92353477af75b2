import { Limits, MessageKeys, objectEnvelope, pluginInfoSchema, type PluginInfo } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.js';

/**
 * The talk-agent package is not built yet (the talk issue ships it). Until then the plugin page
 * says so plainly instead of offering a download that does not exist.
 */
const TALK_AGENT: PluginInfo = {
  name: 'talk-agent',
  available: false,
  version: null,
  url: null,
  size: null,
  message: MessageKeys.pluginNotShipped,
  monitorPort: Limits.monitorPort,
  talkPort: Limits.talkPort,
};

/** Plugin page data (prefix /api/Plugin; every role). */
export const pluginRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Info',
    {
      schema: {
        tags: ['Plugin'],
        security: [{ bearerAuth: [] }],
        summary: "The talk-agent package's version and whether it can be downloaded (not shipped yet: available=false)",
        response: { 200: objectEnvelope(pluginInfoSchema) },
      },
    },
    async () => ok(TALK_AGENT),
  );
};
