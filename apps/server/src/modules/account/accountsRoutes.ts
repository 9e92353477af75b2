import {
  accountDisableSchema,
  accountResetPasswordSchema,
  consoleAccountRowSchema,
  emptyEnvelopeSchema,
  idParamSchema,
  objectEnvelope,
  profileSaveSchema,
  profileSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/AppError.js';
import { done, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { findAccount } from './accountsRepository.js';
import { disableAccount, profileOf, resetPassword, saveProfile } from './accountsService.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Account'];
const security = [{ bearerAuth: [] }];
const adminOnly = { adminOnly: true };

/** Console accounts (admin) and the own profile (any role), prefix /api/Account. */
export const accountsRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Entitys/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        security,
        summary: 'One console account (admin)',
        params: idParamSchema,
        response: { 200: objectEnvelope(consoleAccountRowSchema) },
      },
    },
    async (request) => {
      const ctx = serviceContext(request);
      const account = await findAccount(ctx.db, ctx.scope, request.params.id);
      if (!account) throw AppError.notFound();
      return ok(account);
    },
  );

  app.post(
    '/Disable',
    {
      config: adminOnly,
      schema: {
        tags,
        security,
        summary: 'Disable (ends its sessions) or enable a console account (admin)',
        body: accountDisableSchema,
        response: { 200: objectEnvelope(consoleAccountRowSchema) },
      },
    },
    async (request) => ok(await disableAccount(serviceContext(request), request.body.A_ID, request.body.Disabled)),
  );

  app.post(
    '/ResetPassword',
    {
      config: adminOnly,
      schema: {
        tags,
        security,
        summary: 'Set a new password for a console account and end its sessions (admin)',
        body: accountResetPasswordSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await resetPassword(serviceContext(request), request.body.A_ID, request.body.Password);
      return done();
    },
  );

  app.get(
    '/Profile',
    {
      schema: {
        tags,
        security,
        summary: 'The own account: name and mail',
        response: { 200: objectEnvelope(profileSchema) },
      },
    },
    async (request) => ok(await profileOf(serviceContext(request))),
  );

  app.post(
    '/SaveProfile',
    {
      schema: {
        tags,
        security,
        summary: 'Change the own name and mail',
        body: profileSaveSchema,
        response: { 200: objectEnvelope(profileSchema) },
      },
    },
    async (request) => ok(await saveProfile(serviceContext(request), request.body)),
  );
});
