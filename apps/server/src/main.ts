import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, loggerOptions } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDeps } from './createDeps.js';
import { DEMO_ADMIN, DEMO_CODE, seedFirstRun } from './auth/seedFirstRun.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** On shutdown, how long hub clients reconnect elsewhere before the terminals are sent after them. */
const CONSOLE_HEAD_START_MS = 2000;
const consoleDir = path.resolve(here, '../../console/dist');
const fieldDir = path.resolve(here, '../../field/dist');

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, consoleDir, fieldDir);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { deps, database } = await createDeps(config, { passwordLogN: config.passwordHashLogN });
  const https = config.tls
    ? { cert: fs.readFileSync(config.tls.cert), key: fs.readFileSync(config.tls.key) }
    : undefined;
  const app = await buildApp(deps, {
    logger: loggerOptions(config.logLevel),
    https,
    hub: { pushIntervalMs: config.hubPushIntervalMs },
  });

  const firstRun = await seedFirstRun(deps.db, config.adminPassword, deps.passwordLogN);
  await app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
  if (config.osmandPort) await app.terminals.listenOsmand(config.osmandPort, config.host);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `${config.tls ? 'https' : 'http'}://localhost:${port}`;
  const lines = [`Intercom Management Platform is ready at ${url}`];
  if (fs.existsSync(path.join(fieldDir, 'index.html'))) lines.push(`  Field app:    ${url}/field`);
  if (config.osmandPort) lines.push(`  OsmAnd / Traccar Client: port ${config.osmandPort} (?id=<phone>)`);
  if (firstRun.created) {
    lines.push(`  Company code: ${DEMO_CODE}`, `  Account:      ${DEMO_ADMIN}`);
    lines.push(
      firstRun.generatedPassword
        ? `  Password:     ${firstRun.generatedPassword} (generated, shown only now)`
        : '  Password:     the one you set in ADMIN_PASSWORD',
    );
  }
  lines.push(`  Data:         ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : config.dataDir}`);
  if (!fs.existsSync(path.join(consoleDir, 'index.html'))) lines.push('Console not built: run npm run build');
  // `npm run demo` prints its own block with the demo's password (scripts/start.mjs): one block, not two.
  if (process.env.INTERCOM_DEMO !== '1') process.stdout.write(`\n${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      // The balancer's health check fails from now on; until it notices, what still arrives is
      // answered: hub negotiates and terminal upgrades with 503, which the balancer retries on
      // another instance (deploy/haproxy.cfg `retry-on`), the rest as usual.
      app.draining = true;
      // Hub clients first (close() waits up to a second until each has taken its Close), then a
      // head start before the terminals are sent away: every terminal of this instance logs in
      // again on the others at once, and a console's reconnect and snapshot there would queue
      // behind that storm (seconds on a busy machine). Terminals still report and get acks here
      // meanwhile.
      await app.hub.close();
      app.log.info('hub clients told to reconnect');
      await new Promise((resolve) => setTimeout(resolve, CONSOLE_HEAD_START_MS));
      // No fix is acknowledged after this, and every acknowledged one is written.
      await app.terminals.close();
      app.log.info('terminals drained');
      await app.close();
      await deps.realtime.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
