#!/usr/bin/env node
// Runs the browser tests (Vitest + playwright-core + Debian's Chromium) against the built app.
// `--report=FILE` writes Vitest's JSON report there (npm test sums the counts); `--shard=I/N` runs
// the I-th of N parts of the files (npm test runs the parts side by side, each with its own server);
// `--save-times` (with --report, no --shard) keeps each file's time for the shards' balance.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = process.argv.find((a) => a.startsWith('--report='))?.slice('--report='.length);
const args = ['run', '--config', 'e2e/vitest.config.ts', '--reporter=default'];
if (report) args.push('--reporter=json', `--outputFile.json=${report}`);
const testsDir = path.join(root, 'e2e/tests');
const timesFile = path.join(root, 'e2e/fileSeconds.json');
const shard = process.argv.find((a) => a.startsWith('--shard='))?.slice('--shard='.length);
if (shard) args.push(...shardFiles(shard));
const result = spawnSync(path.join(root, 'node_modules/.bin/vitest'), args, { cwd: root, stdio: 'inherit' });
if (report && !shard && process.argv.includes('--save-times') && result.status === 0) saveTimes(report);
process.exit(result.status ?? 1);

/**
 * The files of shard `I/N`, balanced on each file's time in an earlier full run (fileSeconds.json,
 * rewritten by `node e2e/run.mjs --report=FILE --save-times` after a run of every file; a file not in
 * it counts as its size over the average bytes a second of those that are): largest first, each to the
 * shard with the least time so far. Shard 1 takes first the real-time audio files: those that start
 * the local talk agent (it listens on fixed ports, 12001 and 12002, so two at once would collide;
 * another shard's console is another origin, which the agent refuses as it refuses any, plugin.e2e
 * checks it, so to that console it is the same as no agent) and those that talk through a fake
 * microphone, so the other shard's browser (Chromium raises its own processes to nice -8) does not
 * run beside every one of them.
 */
function shardFiles(spec) {
  const [index, count] = spec.split('/').map(Number);
  if (!(count >= 1 && index >= 1 && index <= count)) throw new Error(`--shard=${spec}: expected I/N with 1 <= I <= N`);
  const seconds = JSON.parse(fs.readFileSync(timesFile, 'utf8'));
  const files = fs
    .readdirSync(testsDir)
    .filter((name) => name.endsWith('.e2e.ts'))
    .map((name) => {
      const text = fs.readFileSync(path.join(testsDir, name), 'utf8');
      const realTime = ['spawnTalkAgent(', 'fakeMicrophoneArgs('].some((call) => text.includes(call));
      return { name, bytes: text.length, known: seconds[name], realTime };
    });
  const measured = files.filter((file) => file.known !== undefined);
  const bytesPerSecond =
    measured.reduce((sum, file) => sum + file.bytes, 0) /
    Math.max(
      1,
      measured.reduce((sum, f) => sum + f.known, 0),
    );
  for (const file of files) file.cost = file.known ?? file.bytes / (bytesPerSecond || 1);
  files.sort((a, b) => b.cost - a.cost || a.name.localeCompare(b.name));
  const shards = Array.from({ length: count }, () => ({ cost: 0, names: [] }));
  for (const file of [...files.filter((f) => f.realTime), ...files.filter((f) => !f.realTime)]) {
    const target = file.realTime ? shards[0] : shards.reduce((least, s) => (s.cost < least.cost ? s : least));
    target.cost += file.cost;
    target.names.push(`tests/${file.name}`);
  }
  return shards[index - 1].names;
}

/** Writes each file's time in the run's report to fileSeconds.json (a run of every file). */
function saveTimes(reportFile) {
  const { testResults } = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const seconds = Object.fromEntries(
    testResults
      .map((file) => [path.basename(file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  fs.writeFileSync(timesFile, `${JSON.stringify(seconds, null, 2)}\n`);
}
