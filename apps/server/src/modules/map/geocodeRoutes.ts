import {
  objectEnvelope,
  reverseGeocodeQuerySchema,
  reverseGeocodeSchema,
  type ReverseGeocode,
} from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { AppError } from '../../http/AppError.js';
import { ok } from '../../http/envelope.js';
import { findUser } from '../userinfo/index.js';
import { ReverseGeocoder } from './reverseGeocoder.js';
import { syncPlugin } from '../../http/syncPlugin.js';

/** The first language tag of Accept-Language, for the geocoder's `accept-language`. */
function languageOf(header: string | undefined): string {
  const tag = header?.split(',')[0]?.split(';')[0]?.trim() ?? '';
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(tag) ? tag : 'en';
}

/**
 * `GET /api/Map/ReverseGeocode` (DESIGN.md section 8): the address of a user's live position, or of
 * a point of its track (`lat`, `lon`). Only users in the caller's scope (4004 otherwise).
 */
export const geocodeRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  const geocoder = new ReverseGeocoder(app.deps.config.geocoder, app.deps.clock);
  app.decorate('geocoder', geocoder);

  app.get(
    '/api/Map/ReverseGeocode',
    {
      schema: {
        tags: ['Map'],
        security: [{ bearerAuth: [] }],
        summary:
          "Address of the user's latest position, or of lat/lon (a point of its track); reason tells why address is null",
        querystring: reverseGeocodeQuerySchema,
        response: { 200: objectEnvelope(reverseGeocodeSchema) },
      },
    },
    async (request) => {
      const { U_ID, lat, lon } = request.query;
      const auth = authOf(request);
      const user = await findUser(app.deps.db, auth.scope, U_ID);
      if (!user) throw AppError.notFound();
      const point =
        lat !== undefined && lon !== undefined
          ? { lat, lon }
          : app.deps.realtime.live.user(user.E_ID, user.UserID)?.position;
      if (!point) return ok<ReverseGeocode>({ address: null, lat: null, lon: null, reason: 'no_position' });
      // The caller's enterprise takes its turn in the geocoder's queue (fair across enterprises).
      const language = languageOf(request.headers['accept-language']);
      const result = await geocoder.reverse(auth.account.E_ID, point.lat, point.lon, language);
      return ok<ReverseGeocode>({ ...result, lat: point.lat, lon: point.lon });
    },
  );
});

declare module 'fastify' {
  interface FastifyInstance {
    geocoder: ReverseGeocoder;
  }
}
