import {
  emptyEnvelopeSchema,
  exportParamsSchema,
  idParamSchema,
  listEnvelope,
  objectEnvelope,
  queryParamsSchema,
} from '@intercom/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../auth/authPlugin.js';
import { done, list, ok } from '../http/envelope.js';
import type { EntityDefinition } from './EntityDefinition.js';
import { exportEntity } from './exportEntity.js';
import { queryEntity } from './queryEntity.js';

const security = [{ bearerAuth: [] }];

/** Registers /api/{name}/QueryData, ExportData and, where defined, Delete/{id} and Save. */
export function registerEntityRoutes(parent: FastifyInstance, def: EntityDefinition): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const tags = [def.name];
  const config = { adminOnly: def.adminOnly ?? false };
  const prefix = `/api/${def.name}`;

  app.get(
    `${prefix}/QueryData`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Page of ${def.name} rows`,
        querystring: queryParamsSchema,
        response: { 200: listEnvelope(def.rowSchema) },
      },
    },
    async (request) => {
      const { rows, total } = await queryEntity(app.deps.db, def, authOf(request).scope, request.query);
      return list(rows, total);
    },
  );

  app.get(
    `${prefix}/ExportData`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `${def.name} rows as CSV (UTF-8 with BOM) or XLSX`,
        querystring: exportParamsSchema,
      },
    },
    async (request, reply) => {
      const stream = exportEntity(app.deps.db, def, authOf(request).scope, request.query);
      const xlsx = request.query.format === 'xlsx';
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header(
          'Content-Type',
          xlsx ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8',
        )
        .header('Content-Disposition', `attachment; filename="${def.name}-${stamp}.${xlsx ? 'xlsx' : 'csv'}"`)
        .send(stream);
    },
  );

  const remove = def.remove;
  if (remove) {
    app.delete(
      `${prefix}/Delete/:id`,
      {
        config,
        schema: {
          tags,
          security,
          summary: `Delete one ${def.name}`,
          params: idParamSchema,
          response: { 200: emptyEnvelopeSchema },
        },
      },
      async (request) => {
        await remove({ db: app.deps.db, auth: authOf(request), request }, request.params.id);
        return done();
      },
    );
  }

  const save = def.save;
  if (save) {
    app.post(
      `${prefix}/Save`,
      {
        config,
        schema: {
          tags,
          security,
          summary: `Create or update one ${def.name}`,
          body: save.body,
          response: { 200: objectEnvelope(z.unknown()) },
        },
        ...(save.scopeFirst && {
          preValidation: async (request: FastifyRequest) =>
            save.scopeFirst?.({ db: app.deps.db, auth: authOf(request), request }, request.body),
        }),
      },
      async (request) => ok(await save.handler({ db: app.deps.db, auth: authOf(request), request }, request.body)),
    );
  }
}
