import fs from 'node:fs';
import { Limits, MessageKeys, objectEnvelope, pluginInfoSchema, type PluginInfo } from '@intercom/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/AppError.js';
import { ok } from '../../http/envelope.js';
import { PACKAGE_FILE, talkAgentPackage } from './talkAgentPackage.js';
import { syncPlugin } from '../../http/syncPlugin.js';

/** The agent reads this header to learn the version it downloads (docs/talk-agent.md). */
const VERSION_HEADER = 'X-Talk-Agent-Version';
/** The build's signature of the package; the agent refuses an update without a valid one. */
const SIGNATURE_HEADER = 'X-Talk-Agent-Signature';

/** Plugin page data (prefix /api/Plugin; Info: every role; Package: public). */
export const pluginRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  app.get(
    '/Info',
    {
      schema: {
        tags: ['Plugin'],
        security: [{ bearerAuth: [] }],
        summary:
          "The talk-agent package's version, size and download URL (available=false when the server has no build)",
        response: { 200: objectEnvelope(pluginInfoSchema) },
      },
    },
    () => {
      const pkg = talkAgentPackage(app.deps.config.talkAgentDir);
      const info: PluginInfo = {
        name: 'talk-agent',
        available: pkg !== undefined,
        version: pkg?.version ?? null,
        url: pkg ? '/api/Plugin/Package' : null,
        size: pkg?.size ?? null,
        message: pkg ? '' : MessageKeys.pluginNotShipped,
        monitorPort: Limits.monitorPort,
        talkPort: Limits.talkPort,
      };
      return ok(info);
    },
  );

  app.get(
    '/Package',
    {
      schema: {
        tags: ['Plugin'],
        summary: `The talk agent as one Node.js script (${PACKAGE_FILE}); its version in the ${VERSION_HEADER} header and, when the build signed it, its Ed25519 signature in ${SIGNATURE_HEADER}. Public: the agent's self-update has no token`,
      },
    },
    async (_request, reply) => {
      const pkg = talkAgentPackage(app.deps.config.talkAgentDir);
      if (!pkg) throw AppError.notFound();
      if (pkg.signature) reply.header(SIGNATURE_HEADER, pkg.signature);
      return reply
        .header('Content-Type', 'text/javascript; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${PACKAGE_FILE}"`)
        .header(VERSION_HEADER, pkg.version)
        .header('Cache-Control', 'no-cache')
        .send(fs.createReadStream(pkg.file));
    },
  );
});
