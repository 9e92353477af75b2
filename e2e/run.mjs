#!/usr/bin/env node
// Runs the browser tests (Vitest + playwright-core + Debian's Chromium) against the built app.
// `--report=FILE` writes Vitest's JSON report there (npm test sums the counts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = process.argv.find((a) => a.startsWith('--report='))?.slice('--report='.length);
const args = ['run', '--config', 'e2e/vitest.config.ts', '--reporter=default'];
if (report) args.push('--reporter=json', `--outputFile.json=${report}`);
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), args, { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
