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
import { registerEntityRoutes } from './generic/entityRoutes.js';
import { installErrorHandler } from './http/errorHandler.js';
import { redactUrl } from './http/redactUrl.js';
import type { HubOptions } from './realtime/hubOptions.js';
import { realtimePlugin } from './realtime/realtimePlugin.js';
import type { TerminalOptions } from './terminals/terminalOptions.js';
import { terminalsPlugin } from './terminals/terminalsPlugin.js';
import { talkModule } from './modules/talk/index.js';
import type { TalkOptions } from './talk/talkService.js';
import { gisLocationEntity } from './modules/gisLocation/gisLocationEntity.js';
import { gisLocationRoutes } from './modules/gisLocation/gisLocationRoutes.js';
import { accountRoutes } from './modules/account/accountRoutes.js';
import { enterpriseRoutes } from './modules/enterprise/enterpriseRoutes.js';
import { accountsEntity } from './modules/accounts/accountsEntity.js';
import { accountsRoutes } from './modules/accounts/accountsRoutes.js';
import { deviceEntity } from './modules/device/deviceEntity.js';
import { deviceRoutes } from './modules/device/deviceRoutes.js';
import { iccidImportRoutes } from './modules/device/iccidImportRoutes.js';
import { enterpriseEntity } from './modules/enterprises/enterpriseEntity.js';
import { enterprisesRoutes } from './modules/enterprises/enterprisesRoutes.js';
import { organEntity } from './modules/organ/organEntity.js';
import { organRoutes } from './modules/organ/organRoutes.js';
import { terminalEventsPlugin } from './modules/userinfo/terminalEvents.js';
import { userEntity } from './modules/userinfo/userEntity.js';
import { userRoutes } from './modules/userinfo/userRoutes.js';
import { sysLogEntity } from './modules/syslog/sysLogEntity.js';
import { uauthRoutes } from './modules/uauth/uauthRoutes.js';
import { channelModule } from './modules/channel/webChannelRoutes.js';
import { mediaModule } from './modules/media/mediaRoutes.js';
import { locationConfigRoutes } from './modules/locationConfig/locationConfigRoutes.js';
import { gisTypeRoutes } from './modules/gisType/gisTypeRoutes.js';
import { notifyModule } from './modules/notify/notifyRoutes.js';
import { pluginRoutes } from './modules/plugin/pluginRoutes.js';

export interface RouteInfo {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for the test that walks the route table. */
    routeList: RouteInfo[];
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
    // Keep-alive sockets must not hold a shutdown open (main.ts exits after 10 s at most anyway).
    forceCloseConnections: true,
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...(options.https ? { https: options.https } : {}),
  }) as unknown as FastifyInstance;

  app.decorate('deps', deps);
  app.decorate('routeList', [] as RouteInfo[]);
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
  await app.register(rateLimit, { global: false });
  // One registration for every WebSocket route (hub, terminal gateway); frames above 1 MiB are refused.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Intercom Management Platform API', version: '0.1.0' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authPlugin);
  await app.register(terminalEventsPlugin);

  await app.register(uauthRoutes, { prefix: '/api/UAuth' });
  await app.register(accountRoutes, { prefix: '/api/Account' });
  await app.register(enterpriseRoutes, { prefix: '/api/Enterprise' });
  await app.register(enterprisesRoutes, { prefix: '/api/Enterprise' });
  await app.register(organRoutes, { prefix: '/api/Organ' });
  await app.register(userRoutes, { prefix: '/api/UserInfo' });
  await app.register(iccidImportRoutes, { prefix: '/api/UserInfo' });
  await app.register(deviceRoutes, { prefix: '/api' });
  await app.register(accountsRoutes, { prefix: '/api/Account' });
  const entities = [sysLogEntity, enterpriseEntity, organEntity, userEntity, deviceEntity, accountsEntity];
  for (const entity of entities) registerEntityRoutes(app, entity);
  await app.register(channelModule);
  await app.register(mediaModule);
  await app.register(locationConfigRoutes, { prefix: '/api/Enterprise' });
  await app.register(gisTypeRoutes);
  await app.register(notifyModule);
  await app.register(pluginRoutes, { prefix: '/api/Plugin' });
  await app.register(realtimePlugin, { hub: options.hub });
  await app.register(talkModule, { options: options.talk });
  await app.register(terminalsPlugin, { options: options.terminals });
  registerEntityRoutes(app, gisLocationEntity);
  await app.register(gisLocationRoutes, { prefix: '/api/GISLocation' });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(deps.db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

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
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      }
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
    // cacheControl off, or @fastify/static replaces no-cache with its own "public, max-age=0".
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
