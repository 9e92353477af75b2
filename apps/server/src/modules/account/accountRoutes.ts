import {
  MessageKeys,
  SysLogActions,
  changePasswordQuerySchema,
  emptyEnvelopeSchema,
  listEnvelope,
  loginInfoSchema,
  modifyConfigSchema,
  objectEnvelope,
  sysConfigEntrySchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../auth/authPlugin.js';
import { endSession } from '../../auth/sessions.js';
import { announceSessionsEnded } from '../../bus/sessionEvents.js';
import { AppError } from '../../http/AppError.js';
import { done, list, ok } from '../../http/envelope.js';
import { actorOf, writeSysLog } from '../../core/writeSysLog.js';
import { changePassword, modifyConfig } from './accountService.js';
import { listSysConfig } from '../../core/sysConfigRepository.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Account'];
const security = [{ bearerAuth: [] }];

/** The logged-in account: who am I, log out, settings, change password. */
export const accountRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/LoginInfo',
    {
      schema: {
        tags,
        security,
        summary: 'The logged-in account and its enterprise',
        response: { 200: objectEnvelope(loginInfoSchema) },
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const enterprise = await app.deps.db
        .selectFrom('enterprise')
        .select(['E_ID', 'E_Code', 'E_Name'])
        .where('E_ID', '=', account.E_ID)
        .executeTakeFirstOrThrow();
      const child = await app.deps.db
        .selectFrom('enterprise')
        .select('E_ID')
        .where('P_ID', '=', account.E_ID)
        .executeTakeFirst();
      return ok({
        ...enterprise,
        A_ID: account.A_ID,
        IsAdmin: account.Role === 'admin',
        role: account.Role,
        roles: [account.Role],
        name: account.Name || account.LoginName,
        account: account.LoginName,
        HasChildren: child !== undefined,
      });
    },
  );

  app.post(
    '/Logout',
    { schema: { tags, security, summary: 'End this session', response: { 200: emptyEnvelopeSchema } } },
    async (request) => {
      const auth = authOf(request);
      await endSession(app.deps.db, auth.session.S_ID, 'logout');
      announceSessionsEnded(app.deps, auth.account.E_ID, [auth.session.S_ID], 'logout');
      await writeSysLog(app.deps.db, { ...actorOf(request), Action: SysLogActions.logout });
      return done();
    },
  );

  app.get(
    '/SysConfig',
    {
      schema: {
        tags,
        security,
        summary: 'System config entries of the enterprise',
        response: { 200: listEnvelope(sysConfigEntrySchema) },
      },
    },
    async (request) => list(await listSysConfig(app.deps.db, authOf(request).scope)),
  );

  app.post(
    '/ModifyConfig',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Change one config entry (admin only); scCode and scValue in the body or the query',
        querystring: modifyConfigSchema.partial(),
        // Fastify hands a POST without a body to the validator as null, not undefined.
        body: modifyConfigSchema.partial().nullish(),
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      const input = { ...request.query, ...(request.body ?? {}) };
      if (!input.scCode) throw AppError.field('scCode', MessageKeys.required);
      await modifyConfig(app.deps, request, authOf(request), input.scCode, input.scValue ?? '');
      return done();
    },
  );

  app.post(
    '/ChangePassword',
    {
      // Guessing the current password through this call is throttled like the login.
      config: { rateLimit: { max: app.deps.config.loginIpLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Change the own password; ends every session of the account',
        querystring: changePasswordQuerySchema,
        body: z.unknown().optional(),
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await changePassword(app.deps, request, authOf(request), request.query.OldPassword, request.query.NewPassword);
      return done();
    },
  );
});
