import {
  deviceRowSchema,
  type DeviceRow,
  emptyEnvelopeSchema,
  fastMapSchema,
  idParamSchema,
  listEnvelope,
  mapIccidSchema,
  mapResultSchema,
  noneSeriesMapSchema,
  objectEnvelope,
  queryParamsSchema,
  recoverDeviceSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { queryEntity } from '../../generic/queryEntity.js';
import { AppError } from '../../http/AppError.js';
import { done, list, ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { deviceEntity } from './deviceEntity.js';
import { findDevice } from './deviceRepository.js';
import { fastMapIccids, mapIccid, mapPairs, recoverDevice } from './iccidMapping.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Device'];
const security = [{ bearerAuth: [] }];

/** SIM inventory reads and the mapping calls (prefix /api); Save, Delete and export are generic. */
export const deviceRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Device/Entitys/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One device / SIM record',
        params: idParamSchema,
        response: { 200: objectEnvelope(deviceRowSchema) },
      },
    },
    async (request) => {
      const device = await findDevice(app.deps.db, authOf(request).scope, request.params.id);
      if (!device) throw AppError.notFound();
      return ok(device);
    },
  );

  app.get(
    '/UserInfo/QueryDeviceData',
    {
      schema: {
        tags,
        security,
        summary: 'Page of device / SIM records (the Device entity: fields, Search and Mapped filters)',
        querystring: queryParamsSchema,
        response: { 200: listEnvelope(deviceRowSchema) },
      },
    },
    async (request) => {
      const { rows, total } = await queryEntity(app.deps.db, deviceEntity, authOf(request).scope, request.query);
      return list(rows as DeviceRow[], total);
    },
  );

  app.post(
    '/UserInfo/MapICCID',
    {
      schema: {
        tags,
        security,
        summary: 'Map one ICCID onto one user',
        body: mapIccidSchema,
        response: { 200: objectEnvelope(mapResultSchema) },
      },
    },
    async (request) => ok(await mapIccid(serviceContext(request), request.body)),
  );

  app.post(
    '/UserInfo/FastMapICCID',
    {
      schema: {
        tags,
        security,
        summary: 'Map a list of ICCIDs, in order, onto the users without a SIM (oldest first)',
        body: fastMapSchema,
        response: { 200: objectEnvelope(mapResultSchema) },
      },
    },
    async (request) => ok(await fastMapIccids(serviceContext(request), request.body)),
  );

  app.post(
    '/UserInfo/NoneSeriesMap',
    {
      schema: {
        tags,
        security,
        summary: 'Map explicit ICCID / phone pairs',
        body: noneSeriesMapSchema,
        response: { 200: objectEnvelope(mapResultSchema) },
      },
    },
    async (request) => ok(await mapPairs(serviceContext(request), request.body)),
  );

  app.post(
    '/UserInfo/RecoverDevice',
    {
      schema: {
        tags,
        security,
        summary: 'Unbind the SIM of the user and reset its terminal settings',
        body: recoverDeviceSchema,
        response: { 200: emptyEnvelopeSchema },
      },
    },
    async (request) => {
      await recoverDevice(serviceContext(request), request.body.MobilePhone);
      return done();
    },
  );
});
