#!/usr/bin/env node
// `npm test`: every check, in order; non-zero exit when any fails. The last line sums the tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-test-'));
const results = [];
let passed = 0;
let failed = 0;

function step(label, command, args, env = {}) {
  process.stdout.write(`\n=== ${label}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  results.push({ label, ok, seconds: Math.round((Date.now() - started) / 1000) });
  return ok;
}

/** Adds the counts of a Vitest JSON report (or of the e2e runner's report) to the totals. */
function count(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
}

function vitest(label, reportName, args, env) {
  const file = path.join(reports, `${reportName}.json`);
  const ok = step(
    label,
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...args],
    env,
  );
  count(file);
  return ok;
}

step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
step('lint', bin('eslint'), ['.', '--max-warnings', '0']);
step('format', bin('prettier'), ['--check', '.', '--log-level', 'warn']);
vitest('unit and API tests (SQLite)', 'sqlite', []);
if (process.env.TEST_DATABASE_URL) {
  vitest('API tests (PostgreSQL)', 'postgres', ['--project', 'server'], {
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  });
} else {
  process.stdout.write('\n=== API tests (PostgreSQL): skipped, TEST_DATABASE_URL is not set\n');
}
if (step('build', process.execPath, ['scripts/build.mjs'])) {
  const file = path.join(reports, 'e2e.json');
  step('browser tests (Chromium)', process.execPath, ['e2e/run.mjs', `--report=${file}`]);
  count(file);
}

process.stdout.write('\n=== summary\n');
for (const r of results) process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.label} (${r.seconds} s)\n`);
const stepsFailed = results.filter((r) => !r.ok).length;
if (stepsFailed > 0 && failed === 0) failed = stepsFailed;
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
