import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where the field app lives (issue 49): its pages, assets, manifest and service worker. */
export const FIELD_PREFIX = '/field';

/**
 * The field app asks for the microphone (push-to-talk), the location, a screen wake lock and the
 * camera (a video terminal's pictures) on its own pages, and nothing else: no other origin
 * (docs/security.md "Headers").
 */
export const FIELD_PERMISSIONS_POLICY =
  'microphone=(self), geolocation=(self), screen-wake-lock=(self), camera=(self), payment=(), usb=(), serial=()';

/** The headers of one of the app's files: hashed assets kept a year, the rest revalidated. */
function fieldHeaders(file: string): Record<string, string> {
  const asset = file.includes(`${path.sep}assets${path.sep}`);
  return {
    'Permissions-Policy': FIELD_PERMISSIONS_POLICY,
    'Cache-Control': asset ? 'public, max-age=31536000, immutable' : 'no-cache',
    // The worker at /field/sw.js controls /field itself too (the manifest's start_url), not only /field/.
    // Asked for by name; sent as sw.js.br or sw.js.gz to a client that accepts those.
    ...(path.basename(file).replace(/\.(br|gz)$/, '') === 'sw.js' ? { 'Service-Worker-Allowed': FIELD_PREFIX } : {}),
  };
}

/**
 * Serves the built field app under /field: its files as they are (pre-compressed when the client
 * accepts it), and index.html for /field, /field/ and any other path under it (its own routes, and
 * the shell a service worker caches). Nothing is registered when the app is not built.
 */
export function registerFieldApp(app: FastifyInstance, fieldDir: string | undefined): void {
  const index = fieldDir ? path.join(fieldDir, 'index.html') : undefined;
  if (!fieldDir || !index || !fs.existsSync(index)) return;
  void app.register(fastifyStatic, {
    root: fieldDir,
    prefix: `${FIELD_PREFIX}/`,
    // The console's registration owns reply.sendFile; this one only serves its listed files.
    decorateReply: false,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      for (const [name, value] of Object.entries(fieldHeaders(filePath))) res.setHeader(name, value);
    },
  });
  const sendIndex = async (_request: unknown, reply: FastifyReply) => {
    return reply
      .headers(fieldHeaders(index))
      .type('text/html; charset=utf-8')
      .send(await fs.promises.readFile(index));
  };
  app.get(FIELD_PREFIX, { schema: { hide: true } }, sendIndex);
  app.get(`${FIELD_PREFIX}/*`, { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // A missing asset is a 404, never the page (a stale cache would run HTML as a script).
    if (url.startsWith(`${FIELD_PREFIX}/assets/`) || /\.[a-z0-9]+$/i.test(url)) {
      return reply.status(404).send('Not found');
    }
    return sendIndex(request, reply);
  });
}
