import {
  acknowledgeSchema,
  notifyChangeResultSchema,
  notifyRowSchema,
  objectEnvelope,
  resolveSchema,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EntityDefinition } from '../../generic/EntityDefinition.js';
import { textSearchField } from '../../generic/textSearch.js';
import { ok } from '../../http/envelope.js';
import { serviceContext } from '../../core/serviceContext.js';
import { handleNotifications } from './notifyService.js';
import { withDetails } from './notifyRepository.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['Notification'];
const security = [{ bearerAuth: [] }];

/**
 * Alarm records (`/api/Notification/QueryData`, `ExportData`; every role), read from
 * notification_view so rows carry the user's name. Filters: NType, State, CreatedAt (between),
 * U_ID, Phone, and Search (user name, phone, content).
 */
export const notifyEntity: EntityDefinition = {
  name: 'Notification',
  table: 'notification_view',
  fields: {
    N_ID: 'int',
    E_ID: 'int',
    U_ID: 'int',
    UserName: 'string',
    Phone: 'string',
    NType: 'string',
    Content: 'string',
    Latitude: 'number',
    Longitude: 'number',
    State: 'string',
    AckBy: 'int',
    AckName: 'string',
    AckAt: 'time',
    AckComment: 'string',
    HandledBy: 'int',
    HandledName: 'string',
    HandledAt: 'time',
    Comment: 'string',
    CreatedAt: 'time',
    Escalated: 'int',
  },
  virtualFields: { Search: textSearchField(['UserName', 'Phone', 'Content']) },
  defaultOrder: { field: 'CreatedAt', desc: true },
  rowSchema: notifyRowSchema,
  // Details written as a key and parameters, for the reader's language (export keeps Content).
  completeRows: withDetails,
};

/** The two steps of an alarm's handling: one route each, the same call with its own body. */
const steps = [
  {
    path: '/Acknowledge',
    step: 'acknowledge',
    summary: 'Acknowledge new alarms (ids, optional comment); all or nothing',
    body: acknowledgeSchema,
  },
  {
    path: '/Resolve',
    step: 'resolve',
    summary: 'Resolve new or acknowledged alarms (ids, comment required); all or nothing',
    body: resolveSchema,
  },
] as const;

export const notifyRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  for (const { path, step, summary, body } of steps) {
    app.post(
      path,
      { schema: { tags, security, summary, body, response: { 200: objectEnvelope(notifyChangeResultSchema) } } },
      async (request) =>
        ok(await handleNotifications(serviceContext(request), app.deps.realtime.live, step, request.body)),
    );
  }
});
