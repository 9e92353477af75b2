import { authCodeSchema, objectEnvelope } from '@intercom/contract';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuthCodes } from '../../talk/authCodes.js';
import { DEFAULT_TALK_OPTIONS, TalkService, type TalkOptions } from '../../talk/talkService.js';
import { ok } from '../../http/envelope.js';
import { fileRecorder } from '../../talk/fileRecorder.js';

/** The talk server of this instance: floors and relay, and the dispatcher seats' one-time codes. */
export interface Talk {
  service: TalkService;
  authCodes: AuthCodes;
}

declare module 'fastify' {
  interface FastifyInstance {
    talk: Talk;
  }
}

export interface TalkModuleOptions {
  options?: Partial<TalkOptions>;
}

const talkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/AuthCode',
    {
      schema: {
        tags: ['Talk'],
        security: [{ bearerAuth: [] }],
        summary: 'A one-time code (60 s) that logs this console account in to /terminal as dispatcher seat D<A_ID>',
        response: { 200: objectEnvelope(authCodeSchema) },
      },
    },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw new Error('the /api scope authenticates every route');
      const { A_ID, E_ID, Name } = auth.account;
      return ok(app.talk.authCodes.issue({ A_ID, E_ID, name: Name, scope: auth.scope }));
    },
  );
};

/**
 * Push-to-talk (issue 12): `POST /api/Talk/AuthCode` and the TalkService the terminal gateway
 * hands channel, floor, call and audio messages to. Registered before the terminals plugin.
 */
export const talkModule = fp(
  async (app: FastifyInstance, opts: TalkModuleOptions) => {
    const service = new TalkService(app.deps, { ...DEFAULT_TALK_OPTIONS, ...opts.options }, app.log);
    service.recorder = fileRecorder(app.deps, app.log);
    app.decorate('talk', { service, authCodes: new AuthCodes() });
    await app.register(talkRoutes, { prefix: '/api/Talk' });
    app.addHook('onClose', async () => service.close());
  },
  { name: 'talk' },
);
