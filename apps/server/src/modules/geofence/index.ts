import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { geofenceEntity } from './geofenceEntity.js';
import { geofenceRoutes } from './geofenceRoutes.js';

export { GeofenceWatcher, type GeofenceFix, type GeofenceSubject, type RaiseAlarm } from './geofenceWatcher.js';

/** `/api/Geofence/*`: circles and polygons whose crossings raise alarms (issue 32). */
export const geofenceModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(geofenceRoutes, { prefix: '/api/Geofence' });
  registerEntityRoutes(app, geofenceEntity);
};
