import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { AppDeps } from './appDeps.js';
import { authPlugin } from './auth/authPlugin.js';
import { installErrorHandler } from './http/errorHandler.js';
import { registerFieldApp } from './http/fieldApp.js';
import { redactUrl } from './http/redactUrl.js';
import { RequestLog } from './http/requestLog.js';
import { fastifyTrustProxy } from './http/trustProxy.js';
import type { HubOptions } from './hub/hubOptions.js';
import { realtimePlugin } from './hub/realtimePlugin.js';
import type { TerminalOptions } from './terminals/terminalOptions.js';
import { terminalsPlugin } from './terminals/terminalsPlugin.js';
import { metricsPlugin } from './core/metricsPlugin.js';
import { historyRetentionPlugin } from './db/historyRetentionPlugin.js';
import { terminalEventsPlugin } from './core/terminalEvents.js';
import { accountModule } from './modules/account/index.js';
import { channelModule } from './modules/channel/index.js';
import { enterpriseModule } from './modules/enterprise/index.js';
import { gisLocationModule } from './modules/gisLocation/index.js';
import { geofenceModule } from './modules/geofence/index.js';
import { incidentModule } from './modules/incident/index.js';
import { gisTypeModule } from './modules/gisType/index.js';
import { mediaModule } from './modules/media/index.js';
import { notifyModule } from './modules/notify/index.js';
import { safetyModule } from './modules/safety/index.js';
import { organModule } from './modules/organ/index.js';
import { pluginModule } from './modules/plugin/index.js';
import { syslogModule } from './modules/syslog/index.js';
import { uauthModule } from './modules/uauth/index.js';
import { userinfoModule } from './modules/userinfo/index.js';
import { mapModule } from './modules/map/index.js';
import { talkModule } from './modules/talk/index.js';
import { talkPlugin } from './talk/talkPlugin.js';
import type { TalkOptions } from './talk/talkService.js';

/** One entry per API area; each module owns its URL prefixes (README "Where things live"). */
const modules = [
  uauthModule,
  accountModule,
  enterpriseModule,
  organModule,
  userinfoModule,
  syslogModule,
  channelModule,
  mediaModule,
  gisTypeModule,
  notifyModule,
  pluginModule,
  gisLocationModule,
  mapModule,
  talkModule,
  safetyModule,
  geofenceModule,
  incidentModule,
];

export interface RouteInfo {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for the test that walks the route table. */
    routeList: RouteInfo[];
    /**
     * Set when shutdown begins: /readyz answers 503 from then on, so a load balancer takes the
     * instance out while it still serves (docs/operations.md "Rolling restart").
     */
    draining: boolean;
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  https?: { cert: Buffer; key: Buffer };
  /** Timings and limits of the hub /FuncService (tests shorten them). */
  hub?: Partial<HubOptions>;
  /** Timings and limits of the terminal gateway (tests shorten them). */
  terminals?: Partial<TerminalOptions>;
  /** Timings and limits of push-to-talk (tests shorten them). */
  talk?: Partial<TalkOptions>;
}

/** Pino options: secrets never logged (DESIGN.md section 4, issue 2). */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.Password',
        '*.appSecret',
        '*.data',
        '*.access_token',
        '*.refresh_token',
      ],
      censor: '[REDACTED]',
    },
    // The last net: whatever a line says (Fastify's own messages, an error's text and stack), a play
    // ticket or a secret query value in it is replaced before it is written (http/redactUrl.ts).
    hooks: { streamWrite: redactUrl },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

/** Builds the whole server without listening; tests call it through `app.inject`. */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    // One line per request at debug, or info when it fails or is slow (http/requestLog.ts).
    logController: new RequestLog(),
    // Keep-alive sockets must not hold a shutdown open (main.ts exits after 10 s at most anyway).
    forceCloseConnections: true,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...(options.https ? { https: options.https } : {}),
  }) as unknown as FastifyInstance;

  app.decorate('deps', deps);
  app.decorate('routeList', [] as RouteInfo[]);
  app.decorate('draining', false);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) app.routeList.push({ method, url: route.url });
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https:'],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // Plain-HTTP LAN deployments must keep working: never rewrite requests to https.
        upgradeInsecureRequests: null,
      },
    },
    // Plain-HTTP LAN deployments are allowed: do not force HTTPS on every later visit.
    strictTransportSecurity: options.https ? undefined : false,
  });
  await app.register(formbody);
  // Per-IP limits count across instances with REDIS_URL (realtime/redisRateLimitStore.ts).
  const rateLimitStore = deps.realtime.rateLimitStore(app.log);
  await app.register(rateLimit, { global: false, ...(rateLimitStore ? { store: rateLimitStore } : {}) });
  // One registration for every WebSocket route (hub, terminal gateway); frames above 1 MiB are refused.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Intercom Management Platform API', version: '0.1.0' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The product is often served over plain HTTP on a LAN; `upgrade-insecure-requests` would make the
    // browser fetch the docs' own scripts over https and show a blank page there.
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/g, ''),
  });
  await app.register(metricsPlugin);
  await app.register(authPlugin);
  await app.register(terminalEventsPlugin);

  for (const module of modules) await app.register(module);
  await app.register(realtimePlugin, { hub: options.hub });
  await app.register(talkPlugin, { options: options.talk });
  await app.register(terminalsPlugin, { options: options.terminals });
  await app.register(historyRetentionPlugin);

  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (app.draining) return reply.status(503).send({ status: 'draining' });
    try {
      await sql`select 1`.execute(deps.db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  registerFieldApp(app, deps.config.fieldDir);
  registerConsole(app, deps.config.consoleDir);
  return app;
}

/** Serves the built console; every unknown non-API GET gets index.html (client-side routes). */
function registerConsole(app: FastifyInstance, consoleDir: string | undefined): void {
  const index = consoleDir ? path.join(consoleDir, 'index.html') : undefined;
  if (!consoleDir || !index || !fs.existsSync(index)) return;
  void app.register(fastifyStatic, {
    root: consoleDir,
    wildcard: false,
    index: false,
    // The build writes .br and .gz next to every asset; send those to clients that accept them.
    preCompressed: true,
    // @fastify/static 9 writes its own Cache-Control after setHeaders unless it is off: hashed
    // assets are kept for a year, everything else is revalidated.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      const asset = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || url === '/api') {
      return reply.status(404).send({ BaseResult: { Code: 4004, Message: 'error.not_found' } });
    }
    const file = path.normalize(url).replace(/^([/\\])+/, '');
    const candidate = path.join(consoleDir, file);
    if (file && candidate.startsWith(consoleDir) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return reply.sendFile(file);
    }
    if (url.startsWith('/assets/')) return reply.status(404).send('Not found');
    return reply.sendFile('index.html');
  });
}
