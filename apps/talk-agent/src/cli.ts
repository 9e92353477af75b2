#!/usr/bin/env node
import { startAgent } from './agent.js';
import { USAGE, parseAgentOptions } from './options.js';
import { AGENT_VERSION } from './version.js';

// `npm run talk-agent -- --server <url> ...` (and the bundled talk-agent.mjs the server hands out).
let options;
try {
  options = parseAgentOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
try {
  const agent = await startAgent(options);
  process.stdout.write(
    `talk agent ${AGENT_VERSION}: monitor ws://127.0.0.1:${agent.monitorPort}, talk ws://127.0.0.1:${agent.talkPort}; ` +
      `platform ${options.server}; allowed origins ${options.allowOrigins.join(', ')}\n`,
  );
  if (options.allowUnsignedUpdate)
    process.stderr.write('--allow-unsigned-update: Update also installs packages that carry no signature\n');
  const stop = () => void agent.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  process.stderr.write(
    code === 'EADDRINUSE'
      ? `a port is in use: is another talk agent running? (${(error as Error).message})\n`
      : `${(error as Error).message}\n`,
  );
  process.exit(1);
}
