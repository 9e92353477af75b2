import { authCodeSchema, objectEnvelope } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const talkRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.post(
    '/AuthCode',
    {
      schema: {
        tags: ['Talk'],
        security: [{ bearerAuth: [] }],
        summary:
          'A one-time code (60 s) that logs this console session in to /terminal as dispatcher seat D<A_ID>; the seat closes when the session ends',
        response: { 200: objectEnvelope(authCodeSchema) },
      },
    },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw new Error('the /api scope authenticates every route');
      const { A_ID, E_ID, Name } = auth.account;
      // app.talk is the talk server (talk/talkPlugin.ts), decorated on the root after the modules.
      // The code names the session: the seat it opens lives only as long as this session (DESIGN.md 11).
      return ok(
        await request.server.talk.authCodes.issue(
          { A_ID, E_ID, S_ID: auth.session.S_ID, name: Name },
          request.server.deps.clock.now(),
        ),
      );
    },
  );
});

/** `/api/Talk/*`: what the console needs from the talk server (a dispatcher seat's one-time code). */
export const talkModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(talkRoutes, { prefix: '/api/Talk' });
};
