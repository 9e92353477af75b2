import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntityRoutes } from '../../generic/entityRoutes.js';
import { notifyEntity, notifyRoutes } from './notifyRoutes.js';

export { insertNotification, type NewNotification } from './notifyRepository.js';
export { alarmText, type AlarmContent } from './alarmContent.js';
export {
  alarmsOfUsersSince,
  alarmsToEscalate,
  claimAlarm,
  markEscalated,
  unclaimAlarm,
  unhandledAlarms,
  unhandledEpisodeAlarms,
} from './alarmRows.js';

/** `/api/Notification/*`: alarms and notices of terminals, and their handling. */
export const notifyModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(notifyRoutes, { prefix: '/api/Notification' });
  registerEntityRoutes(app, notifyEntity);
};
