import {
  Code,
  KNOTS_TO_KMH,
  MessageKeys,
  TerminalLimits,
  emptyEnvelopeSchema,
  osmandParamsSchema,
  osmandTime,
  type Fix,
  type OsmandParams,
} from '@intercom/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/AppError.js';
import { done } from '../http/envelope.js';
import type { TerminalService } from './terminalService.js';
import { refusalOf } from './terminalUsers.js';

/**
 * Traccar Client 9 and later POST JSON instead of parameters:
 * `{ device_id, location: { timestamp, coords: { latitude, longitude, speed (m/s), heading, altitude, accuracy }, battery: { level 0-1 } } }`.
 */
function fromTraccarJson(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const location = body.location as Record<string, unknown> | undefined;
  if (typeof location !== 'object' || location === null || body.device_id === undefined) return undefined;
  const coords = (location.coords ?? {}) as Record<string, unknown>;
  const battery = (location.battery ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && v >= 0 ? v : undefined);
  const speed = num(coords.speed);
  const level = num(battery.level);
  return {
    id: body.device_id,
    lat: coords.latitude,
    lon: coords.longitude,
    timestamp: location.timestamp,
    speed: speed === undefined ? undefined : (speed * 3.6) / KNOTS_TO_KMH,
    bearing: num(coords.heading),
    altitude: coords.altitude,
    accuracy: num(coords.accuracy),
    batt: level === undefined ? undefined : Math.round(level * 100),
  };
}

/** Query parameters and body (form or JSON) as one record; the body wins. */
function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return query;
  return { ...query, ...(fromTraccarJson(body as Record<string, unknown>) ?? (body as Record<string, unknown>)) };
}

/** Validated parameters and the fix they carry; absurd values are a 4000 naming the field, nothing stored. */
export function parseOsmand(raw: Record<string, unknown>, now: number): { params: OsmandParams; fix: Fix } {
  const parsed = osmandParamsSchema.safeParse(raw);
  if (!parsed.success) {
    throw AppError.validation(
      parsed.error.issues.map((issue) => {
        const field = String(issue.path[0] ?? 'id');
        const missing = raw[field] === undefined || raw[field] === '';
        return { field, key: missing ? MessageKeys.required : MessageKeys.invalid };
      }),
    );
  }
  const params = parsed.data;
  const time = osmandTime(params.timestamp);
  if (!Number.isFinite(time) || time < TerminalLimits.minFixTime || time > now + TerminalLimits.maxFutureSkewMs) {
    throw AppError.field('timestamp', MessageKeys.outOfRange);
  }
  const fix: Fix = {
    lat: params.lat,
    lon: params.lon,
    time,
    speed: params.speed === undefined ? null : Math.min(params.speed * KNOTS_TO_KMH, TerminalLimits.maxSpeedKmh),
    course: params.bearing ?? null,
    accuracy: params.accuracy ?? null,
    altitude: params.altitude ?? null,
  };
  return { params, fix };
}

/** One OsmAnd report: the user by phone or device code, then the fix and the battery level. */
export async function handleOsmand(service: TerminalService, raw: Record<string, unknown>): Promise<void> {
  const now = service.clock.now();
  const { params, fix } = parseOsmand(raw, now);
  const user = await service.userByDeviceId(params.id, now);
  if (!user) throw AppError.notFound();
  const refusal = refusalOf(user, now);
  if (refusal) {
    const key = refusal === 'enterprise_disabled' ? MessageKeys.loginEnterpriseExpired : MessageKeys.loginDisabled;
    throw new AppError(Code.Forbidden, key);
  }
  const config = await service.configOf(user);
  const reporting = {
    U_ID: user.U_ID,
    E_ID: user.E_ID,
    Phone: user.Phone,
    UserName: user.UserName,
    interval: config.interval,
  };
  // 200 only once the fix is committed: a tracker that gets no 200 sends it again.
  const result = await service.recordFixes(reporting, [fix]);
  if (result === 'failed') throw new Error('history batch not stored');
  if (result !== 'ok') throw new AppError(Code.TooMany, MessageKeys.tooMany);
  if (params.batt !== undefined) service.recordStatus(reporting, { battery: params.batt });
}

/**
 * `GET|POST {path}` for OsmAnd devices and Traccar Client: public (a tracker has no session),
 * limited per address; 200 with an empty envelope when stored.
 */
export function registerOsmandRoutes(app: FastifyInstance, service: TerminalService, paths: readonly string[]): void {
  for (const url of paths) {
    app.route({
      method: ['GET', 'POST'],
      url,
      config: { rateLimit: { max: service.options.osmandPerMinute, timeWindow: '1 minute' } },
      // A tracker reports every few seconds: a log line per report would drown everything else.
      logLevel: 'warn',
      schema: {
        tags: ['Terminals'],
        summary:
          'OsmAnd / Traccar Client position report: id (phone or device code), lat, lon, timestamp, speed (knots), bearing, altitude, accuracy, batt',
        response: { 200: emptyEnvelopeSchema },
      },
      handler: async (request) => {
        await handleOsmand(service, paramsOf(request));
        return done();
      },
    });
  }
}
