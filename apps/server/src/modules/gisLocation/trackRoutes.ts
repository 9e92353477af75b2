import { Readable } from 'node:stream';
import { buildTrack, objectEnvelope, trackExportQuerySchema, trackQuerySchema, trackSchema } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { AppError } from '../../http/AppError.js';
import { ok } from '../../http/envelope.js';
import { findUser } from '../userinfo/index.js';
import { trackCsv, trackGpx } from './trackExport.js';
import { fixesOf } from './trackRepository.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const tags = ['GISLocation'];
const security = [{ bearerAuth: [] }];

/** A whole track at once (issue 11) and its GPX / CSV export (prefix /api/GISLocation). */
export const trackRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  /** The user's track in the caller's scope (4004 for a user outside it, as if it did not exist). */
  async function trackOf(
    auth: ReturnType<typeof authOf>,
    q: { U_ID: number; from: number; to: number; stopRadius: number; stopMinMs: number },
  ) {
    const user = await findUser(app.deps.db, auth.scope, q.U_ID);
    if (!user) throw AppError.notFound();
    const fixes = await fixesOf(app.deps.db, { E_ID: user.E_ID, U_ID: user.UserID }, q);
    return { user, track: buildTrack(fixes, { radius: q.stopRadius, minMs: q.stopMinMs }) };
  }

  app.get(
    '/Track',
    {
      schema: {
        tags,
        security,
        summary:
          'Whole track of a user (epoch ms H_Time1..H_Time2, one required, at most 7 days): parallel arrays, stops, no-data gaps, stats',
        querystring: trackQuerySchema,
        response: { 200: objectEnvelope(trackSchema) },
      },
    },
    async (request, reply) => {
      const { track } = await trackOf(authOf(request), request.query);
      // Plain JSON.stringify: a day at 1 Hz is ~500,000 numbers, and checking each against the
      // response schema cost as much as building the track (bench/track.ts). The schema documents it.
      return reply.serializer(JSON.stringify).send(ok(track));
    },
  );

  app.get(
    '/ExportTrack',
    {
      schema: {
        tags,
        security,
        summary: 'The same track as GPX 1.1 or CSV (UTF-8 with BOM); times in the reader zone (utcOffset minutes)',
        querystring: trackExportQuerySchema,
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { user, track } = await trackOf(authOf(request), q);
      const day = new Date(q.from + q.utcOffset * 60_000).toISOString().slice(0, 10);
      // The name is the user's id and the day: a file name never carries a user's free text.
      const file = `track-${user.UserID}-${day}.${q.format}`;
      const gpx = q.format === 'gpx';
      return reply
        .header('Content-Type', gpx ? 'application/gpx+xml; charset=utf-8' : 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file}"`)
        .send(Readable.from(gpx ? trackGpx(track, user.UserName, q.utcOffset) : trackCsv(track, q.utcOffset)));
    },
  );
});
