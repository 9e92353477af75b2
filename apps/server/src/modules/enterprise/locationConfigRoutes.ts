import {
  emptyEnvelopeSchema,
  idParamSchema,
  listEnvelope,
  locationProfileRowSchema,
  locrptSetSchema,
  objectEnvelope,
  saveCurrentLocationSchema,
  saveLocationConfigSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { done, list, ok } from '../../http/envelope.js';
import { enterpriseOf } from '../../core/enterpriseOf.js';
import { serviceContext } from '../../core/serviceContext.js';
import { profilesOf } from './locationRepository.js';
import { locrptSet, removeProfile, saveProfile, setCurrentProfile } from './locationService.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Enterprise'];
const security = [{ bearerAuth: [] }];
const adminOnly = { adminOnly: true };

/** Location-report profiles of an enterprise (prefix /api/Enterprise); reads for every role, writes admin only. */
export const locationConfigRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/GetLocationConfig/:id',
    {
      schema: {
        tags,
        security,
        summary: 'The named location-report profiles of enterprise {id}, the current one first',
        params: idParamSchema,
        response: { 200: listEnvelope(locationProfileRowSchema) },
      },
    },
    async (request) => list(await profilesOf(app.deps.db, enterpriseOf(authOf(request).scope, request.params.id))),
  );

  app.get(
    '/LocrptSet/:id',
    {
      schema: {
        tags,
        security,
        summary: 'What the terminals of enterprise {id} report with: the current profile, or the default',
        params: idParamSchema,
        response: { 200: objectEnvelope(locrptSetSchema) },
      },
    },
    async (request) => ok(await locrptSet({ db: app.deps.db, scope: authOf(request).scope }, request.params.id)),
  );

  app.post(
    '/SaveLocationConfig',
    {
      config: adminOnly,
      schema: {
        tags,
        security,
        summary: 'Create (no scID) or edit a profile: scName, scValue = JSON {interval s, distance m, mode} (admin)',
        body: saveLocationConfigSchema,
        response: { 200: objectEnvelope(locationProfileRowSchema) },
      },
    },
    async (request) => ok(await saveProfile(serviceContext(request), request.body)),
  );

  app.post(
    '/SaveCurrentLocationConfig',
    {
      config: adminOnly,
      schema: {
        tags,
        security,
        summary: 'Make profile scID the current one of its enterprise (admin)',
        body: saveCurrentLocationSchema,
        response: { 200: objectEnvelope(locrptSetSchema) },
      },
    },
    async (request) => ok(await setCurrentProfile(serviceContext(request), request.body.scID)),
  );

  app.delete(
    '/DeleteLocationConfig/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        security,
        summary: 'Delete a profile that is not the current one (admin)',
        params: idParamSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await removeProfile(serviceContext(request), request.params.id);
      return done();
    },
  );
});
