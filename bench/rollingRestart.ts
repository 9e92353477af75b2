// Rolling restart behind HAProxy against its goals (docs/operations.md, "Rolling restart"): three built
// instances on PostgreSQL and Redis, 1,000 moving terminals and 5 consoles; each instance restarted in
// turn. Goals: no acknowledged fix lost, no 5xx outside a drain, each terminal back within 10 s of its
// drop, each console resynced with every terminal within 5 s of the SIGTERM. It runs the test
// apps/server/test/rollingRestart.test.ts with ROLLING_RESTART_GOALS=1 (the times are asserted only
// here) and prints its figures with each goal, the CPU model and the load.
//   node scripts/build.mjs && npx tsx bench/rollingRestart.ts
// ROLLING_TERMINALS (1000); TEST_DATABASE_URL and REDIS_URL_TEST (the local PostgreSQL and Redis).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './support/startServer.js';

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-rolling-bench-')), 'figures.json');
const load = os.loadavg().map((value) => value.toFixed(2));
const run = spawnSync('npx', ['vitest', 'run', 'apps/server/test/rollingRestart.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    REDIS_URL_TEST: process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379',
    ROLLING_TERMINALS: process.env.ROLLING_TERMINALS ?? '1000',
    ROLLING_RESTART_GOALS: '1',
    ROLLING_RESTART_REPORT: report,
  },
});
if (!fs.existsSync(report)) {
  process.stderr.write(`[bench] rolling restart: no figures (the test ended with ${run.status})\n`);
  process.exit(1);
}
const figures = JSON.parse(fs.readFileSync(report, 'utf8')) as Record<string, number>;
const result = {
  bench: 'rolling restart',
  cpu: os.cpus()[0]?.model,
  cores: os.cpus().length,
  loadBefore: load,
  ...figures,
  goals: {
    fixesMissing: { goal: 0, met: figures.fixesMissing === 0 },
    failedOutsideDrains: { goal: 0, met: figures.failedOutsideDrains === 0 },
    reconnectSlowestMs: { goal: 10_000, met: (figures.reconnectSlowestMs ?? Infinity) <= 10_000 },
    resyncSlowestMs: { goal: 5_000, met: (figures.resyncSlowestMs ?? Infinity) <= 5_000 },
  },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
fs.rmSync(path.dirname(report), { recursive: true, force: true });
process.exit(run.status ?? 1);
