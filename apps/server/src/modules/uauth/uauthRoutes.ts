import {
  Code,
  icpSchema,
  loginFormSchema,
  loginResultSchema,
  objectEnvelope,
  publicKeySchema,
  refreshFormSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.js';
import { publicKeyOf } from '../../auth/loginCrypto.js';
import { refreshSession } from '../../auth/sessions.js';
import { dummyHash } from '../../auth/passwords.js';
import { login } from './loginService.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['UAuth'];

/** Login-related calls that answer without a token (the auth hook lists them as public). */
export const uauthRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  // Made now, so the first login of an unknown name costs what every later one does.
  void dummyHash(app.deps.passwordLogN);

  app.get(
    '/PublicKey',
    {
      schema: {
        tags,
        summary: 'RSA public key for the login envelope',
        response: { 200: objectEnvelope(publicKeySchema) },
      },
    },
    () => ok(publicKeyOf(app.deps.loginKey)),
  );

  app.get('/ICP', { schema: { tags, summary: 'ICP footer text', response: { 200: objectEnvelope(icpSchema) } } }, () =>
    ok({ ICP: app.deps.config.icpText }),
  );

  app.post(
    '/Login',
    {
      schema: {
        tags,
        summary: 'Log in with the encrypted envelope',
        body: loginFormSchema,
        response: { 200: loginResultSchema },
      },
      config: { flatResult: true, rateLimit: { max: app.deps.config.loginIpLimitPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { tokens } = await login(app.deps, request.body, { ip: request.ip });
      return { Code: Code.Success, Message: tokens.access_token, ...tokens };
    },
  );

  app.post(
    '/Refresh',
    {
      schema: {
        tags,
        summary: 'Trade a refresh token for new tokens',
        body: refreshFormSchema,
        response: { 200: loginResultSchema },
      },
      config: {
        flatResult: true,
        rateLimit: { max: app.deps.config.loginIpLimitPerMinute * 4, timeWindow: '1 minute' },
      },
    },
    async (request) => {
      const policy = { idleMs: app.deps.config.sessionIdleMs, absoluteMs: app.deps.config.sessionAbsoluteMs };
      const tokens = await refreshSession(app.deps.db, policy, request.body.refresh_token, app.deps.clock.now());
      return { Code: Code.Success, Message: tokens.access_token, ...tokens };
    },
  );
});
