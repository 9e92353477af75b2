import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../http/AppError.js';
import { syncPlugin } from '../http/syncPlugin.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The bearer token matches METRICS_TOKEN (constant time). */
function tokenMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Without a token: only a caller on this machine that came through no proxy. The socket's address,
 * not `request.ip` (which TRUST_PROXY may take from X-Forwarded-For), and a load balancer on the same
 * machine sets a forwarding header, so outside callers never pass as loopback.
 */
function loopbackDirect(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined) return false;
  return LOOPBACK.has(request.raw.socket.remoteAddress ?? '');
}

/**
 * The `route` label: the route pattern, `unmatched` for 404s, and `static` for every file of the
 * console build. @fastify/static (wildcard off) registers one route per file, so hashed assets
 * would add series at each deploy; its routes carry `config.file`.
 */
export function routeLabel(request: FastifyRequest): string {
  const { url, config } = request.routeOptions;
  if (url === undefined) return 'unmatched';
  return typeof (config as { file?: unknown } | undefined)?.file === 'string' ? 'static' : url;
}

/**
 * `GET /metrics` (Prometheus text format) and the HTTP latency histogram per route. Protected so it
 * leaks nothing: with METRICS_TOKEN a matching bearer token, without it loopback callers only;
 * anyone else gets 403 (the envelope) and not one figure.
 */
export const metricsPlugin = fp(
  syncPlugin((app: FastifyInstance) => {
    const { metrics, config } = app.deps;
    app.addHook('onResponse', (request, reply, done) => {
      // The route pattern, not the URL: ids and queries would make a series per request.
      const route = routeLabel(request);
      metrics.httpDuration.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
    app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const allowed = config.metricsToken ? tokenMatches(request, config.metricsToken) : loopbackDirect(request);
      if (!allowed) throw AppError.forbidden();
      const { body, contentType } = await metrics.scrape();
      return reply.header('Content-Type', contentType).header('Cache-Control', 'no-store').send(body);
    });
  }),
  { name: 'metrics' },
);
