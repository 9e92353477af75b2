import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { sysLogEntity } from './sysLogEntity.js';
import { syncPlugin } from '../../http/syncPlugin.js';

/** `/api/SysLog/*`: the system log (rows are written by core/writeSysLog.ts). */
export const syslogModule: FastifyPluginAsyncZod = syncPlugin((app) => {
  registerEntityRoutes(app, sysLogEntity);
});
