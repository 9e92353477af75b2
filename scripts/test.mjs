#!/usr/bin/env node
// `npm test`: every check, in order; non-zero exit when any fails. The last line sums the tests.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-test-'));
const results = [];
let passed = 0;
let failed = 0;
/** Each failed test's file, name and first line of its message, printed again in the summary (CI shows the tail). */
const failures = [];

function step(label, command, args, env = {}) {
  process.stdout.write(`\n=== ${label}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  results.push({ label, ok, seconds: Math.round((Date.now() - started) / 1000) });
  return ok;
}

/**
 * A step run beside others. Its output is held and printed whole when it ends, so two steps' lines
 * never interleave; or, with `prefix`, streamed a line at a time with the prefix in front (a pass that
 * runs for many minutes shows its progress). Resolves true when it exits 0.
 */
function stepAsync(label, command, args, env = {}, prefix = null) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const output = [];
    const partial = { stdout: '', stderr: '' };
    const take = (stream) => (chunk) => {
      if (!prefix) return output.push(chunk);
      const lines = (partial[stream] + chunk.toString()).split('\n');
      partial[stream] = lines.pop();
      for (const line of lines) process.stdout.write(`${prefix} ${line}\n`);
    };
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    if (prefix) process.stdout.write(`\n=== ${label}: started, its lines begin with ${prefix}\n`);
    let done = false;
    const finish = (ok) => {
      if (done) return;
      done = true;
      for (const rest of Object.values(partial)) if (rest) process.stdout.write(`${prefix} ${rest}\n`);
      process.stdout.write(`\n=== ${label}${prefix ? `: ${ok ? 'passed' : 'FAILED'}` : ''}\n`);
      process.stdout.write(Buffer.concat(output));
      results.push({ label, ok, seconds: Math.round((Date.now() - started) / 1000) });
      resolve(ok);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  });
}

/** Adds the counts of a Vitest JSON report (or of the e2e runner's report) to the totals. */
function count(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? '');
    const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of tests) {
      const full = String(test.failureMessages?.[0] ?? '');
      const message = full.split('\n')[0];
      // The test file's line the failure came from (CI shows only the summary's tail).
      const base = path.basename(where).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const line = full.match(new RegExp(`${base}:(\\d+)`))?.[1];
      failures.push(`${where}${line ? `:${line}` : ''} > ${test.fullName ?? test.title}: ${message.slice(0, 300)}`);
    }
    // A file that failed before any test ran (a syntax error, a hook that threw) has no failed test.
    if (file.status === 'failed' && tests.length === 0)
      failures.push(`${where}: ${String(file.message ?? '').split('\n')[0]}`);
  }
}

/** A Vitest run beside others (stepAsync): its counts join the totals when it ends. */
async function vitest(label, reportName, args, env) {
  const file = path.join(reports, `${reportName}.json`);
  const ok = await stepAsync(
    label,
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...args],
    env,
    `[${reportName}]`,
  );
  count(file);
  return ok;
}

const serverTests = path.join(root, 'apps/server/test');
/** The server's test files, relative to the root. */
const serverTestFiles = fs
  .readdirSync(serverTests, { recursive: true })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => path.relative(root, path.join(serverTests, file)));

/** Test files that need a real Redis (REDIS_URL_TEST, default redis://127.0.0.1:6379): named `*.redis.test.ts`. */
const REDIS_ONLY = serverTestFiles.filter((file) => file.endsWith('.redis.test.ts'));

/**
 * Two built instances behind HAProxy on PostgreSQL and Redis (docs/operations.md "Rolling restart"):
 * in the PostgreSQL pass only, and only when haproxy is installed and Redis answers.
 */
const ROLLING_RESTART = 'apps/server/test/rollingRestart.test.ts';
const haproxy = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((file) => fs.existsSync(file));

/** Whether a Redis answers PING at `url` within a second. */
function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * The Redis the scale-out tests use: the one at REDIS_URL_TEST when it answers, else a private
 * `redis-server` started here (when installed) and stopped at the end; else none, and the
 * Redis-only files are skipped with a message.
 */
async function ensureRedis() {
  const url = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
  if (await redisAnswers(url)) return { url };
  const port = 16379 + Math.floor(Math.random() * 1000);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const started = await new Promise((resolve) => {
    child.on('error', () => resolve(false));
    const deadline = Date.now() + 5000;
    const poll = async () => {
      if (await redisAnswers(`redis://127.0.0.1:${port}`)) resolve(true);
      else if (Date.now() > deadline || child.exitCode !== null) resolve(false);
      else setTimeout(poll, 100);
    };
    void poll();
  });
  if (started) {
    process.stdout.write(`\n=== Redis: none at ${url}; started redis-server on port ${port} for the tests\n`);
    return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
  }
  child.kill();
  return { url: undefined };
}

/**
 * What puts a server test file in the PostgreSQL pass (README "Testing"): its own text queries the
 * database (Kysely's selectFrom, insertInto, updateTable or deleteFrom, a sql`` template, an import
 * from src/db/), or it carries a line `// postgres: <why>` (a file that reaches SQL only through the
 * API, such as the query engine's). Every other file (protocol, timing and pure unit tests, which
 * reach the database only to build their app) runs in the SQLite pass alone.
 */
const REACHES_SQL = [
  /\.(?:selectFrom|insertInto|updateTable|deleteFrom)\(/,
  /\bsql`/,
  /from '(?:\.\.\/)+src\/db\//,
  /^\/\/ postgres: /m,
];

/** The server's test files that do not reach SQL by that rule: left out of the PostgreSQL pass. */
function serverFilesWithoutSql() {
  return serverTestFiles.filter((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    return !REACHES_SQL.some((pattern) => pattern.test(text));
  });
}

const redis = await ensureRedis();
const redisEnv = redis.url ? { REDIS_URL_TEST: redis.url } : {};
// Vitest matches --exclude inside each project's root, hence `**/` and the path below apps/server/.
const exclude = (files) => files.flatMap((file) => ['--exclude', `**/${file.replace('apps/server/', '')}`]);
const redisExclude = redis.url ? [] : exclude(REDIS_ONLY);
/** Why the rolling-restart test cannot run in the PostgreSQL pass, or null when it can. */
const rollingMissing =
  [!process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL', !redis.url && 'Redis', !haproxy && 'haproxy']
    .filter(Boolean)
    .join(', ') || null;
if (!redis.url) {
  process.stdout.write(
    `\n=== Redis: not reachable and redis-server not installed; SKIPPING the Redis-only test files:\n` +
      REDIS_ONLY.map((file) => `    ${file}\n`).join(''),
  );
}

if (rollingMissing) {
  process.stdout.write(`\n=== rolling restart test: SKIPPED, no ${rollingMissing} (${ROLLING_RESTART})\n`);
}
if (!process.env.TEST_DATABASE_URL) {
  process.stdout.write('\n=== API tests (PostgreSQL): skipped, TEST_DATABASE_URL is not set\n');
}
// The build first: the browser tests and the built-server tests start it, and the login page budget
// reads its manifest. Then everything at once (docs/benchmarks.md, "CI runs"):
// - The SQLite pass, the PostgreSQL pass and the browser tests (in shards, below), each shard with
//   a server and a data directory of its own. A pass spends much of its time waiting on sockets,
//   timers and the browser, so one alone keeps a core far from busy.
//   They share nothing but Redis (every test file has its own key prefix).
// - Type checking, lint and the format check at the lowest CPU priority (`nice -n 19`): they take
//   the cores the tests leave idle and never slow a test's timing down. Before, they ran first and
//   alone, and the tests waited three minutes for them.
const built = step('build', process.execPath, ['scripts/build.mjs']);
if (built) step('login page JavaScript budget', process.execPath, ['scripts/bundleSize.mjs']);
if (built) step('field app JavaScript budget', process.execPath, ['scripts/fieldBundleSize.mjs']);
const niced = (label, command, args) => stepAsync(label, 'nice', ['-n', '19', command, ...args]);
// One shard of browser tests per two cores (E2E_SHARDS sets it). On two cores two shards took
// 15.6-18.6 minutes against 16.5-17 for one, but the talk agent's e2e test then lost audio frames in
// four of seven runs (load 16-20; its jitter buffer drops what arrives late in piles), and never with
// one shard (docs/benchmarks.md, "CI runs").
const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? Math.floor(os.availableParallelism() / 2)) || 1);
/** One shard of the browser tests (all of them when there is one shard). */
function browserTests(index) {
  const shard = shards > 1 ? `${index}/${shards}` : null;
  const report = path.join(reports, `e2e${shard ? `-${index}` : ''}.json`);
  return stepAsync(
    `browser tests (Chromium)${shard ? `, shard ${shard}` : ''}`,
    process.execPath,
    ['e2e/run.mjs', `--report=${report}`, ...(shard ? [`--shard=${shard}`] : [])],
    {},
    shard ? `[e2e ${index}]` : '[e2e]',
  ).then((ok) => {
    count(report);
    return ok;
  });
}
await Promise.all([
  niced('typecheck', 'npm', ['run', '--silent', 'typecheck']),
  niced('lint', bin('eslint'), ['.', '--max-warnings', '0']),
  niced('format', bin('prettier'), ['--check', '.', '--log-level', 'warn']),
  // TEST_DATABASE_URL left out: this pass is SQLite even where CI exports it for the other one.
  vitest('unit and API tests (SQLite)', 'sqlite', [...redisExclude, ...exclude([ROLLING_RESTART])], {
    ...redisEnv,
    TEST_DATABASE_URL: undefined,
  }),
  process.env.TEST_DATABASE_URL &&
    vitest(
      'API tests (PostgreSQL)',
      'postgres',
      // The server's files that reach SQL, less what needs what is missing.
      [
        '--project',
        'server',
        ...exclude(serverFilesWithoutSql()),
        ...redisExclude,
        ...(rollingMissing ? exclude([ROLLING_RESTART]) : []),
      ],
      { ...redisEnv, TEST_DATABASE_URL: process.env.TEST_DATABASE_URL },
    ),
  ...(built ? Array.from({ length: shards }, (_, i) => browserTests(i + 1)) : []),
]);

redis.stop?.();
process.stdout.write('\n=== summary\n');
if (!redis.url) process.stdout.write(`skip  ${REDIS_ONLY.length} Redis-only test files (no Redis)\n`);
if (rollingMissing) process.stdout.write(`skip  rolling restart test (no ${rollingMissing})\n`);
for (const r of results) process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.label} (${r.seconds} s)\n`);
for (const failure of failures) process.stdout.write(`failed: ${failure}\n`);
const stepsFailed = results.filter((r) => !r.ok).length;
if (stepsFailed > 0 && failed === 0) failed = stepsFailed;
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
