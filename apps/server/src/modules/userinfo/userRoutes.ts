import {
  batchChangeUsersSchema,
  capsSwitchSchema,
  createdUsersSchema,
  emptyEnvelopeSchema,
  freezeUserSchema,
  idParamSchema,
  listEnvelope,
  objectEnvelope,
  optionalFormInt,
  userBatchSchema,
  userBriefSchema,
  userListSchema,
  userLocationConfigSchema,
  userRowSchema,
  userSaveSchema,
  usersQuerySchema,
  userTypeSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../auth/authPlugin.js';
import { AppError } from '../../http/AppError.js';
import { done, list, ok } from '../../http/envelope.js';
import { inScope } from '../../tenancy/scope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { batchChangeUsers, freezeUser, saveUserLocationConfig, switchCaps } from './userActionsService.js';
import { batchAdd, listAdd } from './userBatchService.js';
import { enterpriseOfUserList } from './userListEnterprise.js';
import { findUser, userBriefs } from './userRepository.js';
import { saveUser } from './userService.js';
import { listUserTypes } from '../gisType/index.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['UserInfo'];
const security = [{ bearerAuth: [] }];

/** Terminal-user calls beyond the generic ones (prefix /api/UserInfo). */
export const userRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Entitys/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One user',
        params: idParamSchema,
        response: { 200: objectEnvelope(userRowSchema) },
      },
    },
    async (request) => {
      const user = await findUser(app.deps.db, authOf(request).scope, request.params.id);
      if (!user) throw AppError.notFound();
      return ok(user);
    },
  );

  app.get(
    '/Users',
    {
      schema: {
        tags,
        security,
        summary:
          'Light list of the users of one enterprise (eID, E_ID or E_Code; default the working one), optionally by name, or the user userID',
        querystring: usersQuerySchema,
        response: { 200: listEnvelope(userBriefSchema) },
      },
    },
    async (request) => {
      const { scope } = authOf(request);
      const { eID, E_ID, E_Code, ...filter } = request.query;
      const enterpriseId = await enterpriseOfUserList(app.deps.db, scope, { eID, E_ID, E_Code });
      const { rows, total } = await userBriefs(app.deps.db, enterpriseId, filter);
      if (filter.userID !== undefined && rows.length === 0) throw AppError.notFound();
      return list(rows, total);
    },
  );

  app.get(
    '/GetMyType',
    {
      schema: {
        tags,
        security,
        summary: 'User types of the working enterprise (or eID); ID 0 is the built-in default',
        querystring: z.object({ eID: optionalFormInt(1, 2 ** 31 - 1) }),
        response: { 200: listEnvelope(userTypeSchema) },
      },
    },
    async (request) => {
      const { scope } = authOf(request);
      const enterpriseId = request.query.eID ?? scope.rootId;
      if (!inScope(scope, enterpriseId)) throw AppError.notFound();
      return list(await listUserTypes(app.deps.db, enterpriseId));
    },
  );

  app.post(
    '/UpdateUser',
    {
      schema: {
        tags,
        security,
        summary: 'Create (UserID 0) or edit one user (form); same as POST /api/UserInfo/Save',
        body: userSaveSchema,
        response: { 200: objectEnvelope(userRowSchema) },
      },
    },
    async (request) => ok(await saveUser(serviceContext(request), request.body)),
  );

  app.post(
    '/BatchAdd',
    {
      schema: {
        tags,
        security,
        summary: 'Create up to 99 users from a name prefix and a start number, all or nothing',
        body: userBatchSchema,
        response: { 200: objectEnvelope(createdUsersSchema) },
      },
    },
    async (request) => ok(await batchAdd(serviceContext(request), request.body)),
  );

  app.post(
    '/ListAdd',
    {
      schema: {
        tags,
        security,
        summary: 'Create up to 20 typed users, all or nothing',
        body: userListSchema,
        response: { 200: objectEnvelope(createdUsersSchema) },
      },
    },
    async (request) => ok(await listAdd(serviceContext(request), request.body)),
  );

  app.post(
    '/FreezeUser',
    {
      schema: {
        tags,
        security,
        summary: 'Freeze (isLock true, ends its terminal sessions) or unfreeze a user',
        body: freezeUserSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await freezeUser(serviceContext(request), request.body);
      return done();
    },
  );

  app.post(
    '/UCapsSwitch',
    {
      schema: {
        tags,
        security,
        summary: 'Set the capability mask of a user (bits of UserCaps)',
        body: capsSwitchSchema,
        response: {
          200: objectEnvelope(z.object({ UserID: z.number().int(), MobilePhone: z.string(), Caps: z.number().int() })),
        },
      },
    },
    async (request) => ok(await switchCaps(serviceContext(request), request.body)),
  );

  app.post(
    '/SaveLocationConfig',
    {
      schema: {
        tags,
        security,
        summary: 'Set the GPS parameter of one user',
        body: userLocationConfigSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await saveUserLocationConfig(serviceContext(request), request.body);
      return done();
    },
  );

  app.post(
    '/BChangeUser',
    {
      schema: {
        tags,
        security,
        summary: 'Set the priority and/or department of several users, all or nothing',
        body: batchChangeUsersSchema,
        response: { 200: objectEnvelope(z.object({ changed: z.number().int() })) },
      },
    },
    async (request) => ok(await batchChangeUsers(serviceContext(request), request.body)),
  );
});
