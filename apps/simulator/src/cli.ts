#!/usr/bin/env node
import { startFleet } from './fleet.js';
import { USAGE, parseOptions } from './options.js';

/** `npm run simulate -- --terminals N ...`: a fleet of simulated terminals against a running server. */
async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const options = parseOptions(process.argv.slice(2));
  const log = (line: string) => process.stdout.write(`[simulator] ${line}\n`);
  const fleet = await startFleet(options, log);
  const progress = options.quiet ? undefined : setInterval(() => log(fleet.stats.line()), 10_000);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(progress);
    await fleet.stop();
    log(`stopped: ${fleet.stats.line()}`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (options.duration > 0) setTimeout(() => void stop(), options.duration * 1000);
}

main().catch((error: unknown) => {
  process.stderr.write(`[simulator] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
