#!/usr/bin/env node
// Builds the contract, the media package, the server, the console and the field app when missing or stale; `--force` rebuilds all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');

function newestMtime(entries) {
  let newest = 0;
  const visit = (p) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== 'node_modules' && name !== 'dist') visit(path.join(p, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  entries.forEach((e) => visit(path.join(root, e)));
  return newest;
}

function mtimeOf(file) {
  const p = path.join(root, file);
  return fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0;
}

function run(label, command, args, cwd = root) {
  process.stdout.write(`> ${label}\n`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`${label} failed\n`);
    process.exit(result.status ?? 1);
  }
}

const tsc = path.join(root, 'node_modules/.bin/tsc');
const vite = path.join(root, 'node_modules/.bin/vite');

const serverSources = [
  'packages/contract/src',
  'packages/media/src',
  'packages/terminal-client/src',
  'apps/server/src',
  'apps/server/tsconfig.json',
  'packages/contract/tsconfig.json',
  'packages/media/tsconfig.json',
  'packages/terminal-client/tsconfig.json',
];
if (force || newestMtime(serverSources) > mtimeOf('apps/server/dist/main.js')) {
  run('build server', tsc, [
    '-b',
    'packages/contract',
    'packages/media',
    'packages/terminal-client',
    'apps/server',
    ...(force ? ['--force'] : []),
  ]);
  // tsc -b leaves outputs untouched when nothing changed; mark the build as current.
  const now = new Date();
  fs.utimesSync(path.join(root, 'apps/server/dist/main.js'), now, now);
}

/** Builds a Vite app (its sources: the app's own files after the packages it bundles) and precompresses it. */
function buildViteApp(label, app, packages, appFiles) {
  const sources = [...packages.map((p) => `packages/${p}/src`), ...appFiles.map((f) => `apps/${app}/${f}`)];
  if (force || newestMtime(sources) > mtimeOf(`apps/${app}/dist/index.html`)) {
    run(label, vite, ['build', '--logLevel', 'warn'], path.join(root, `apps/${app}`));
    precompress(path.join(root, `apps/${app}/dist`));
  }
}

buildViteApp(
  'build console',
  'console',
  ['contract', 'browser-audio', 'terminal-client', 'agent-client'],
  ['src', 'index.html', 'vite.config.ts', 'public', 'package.json'],
);
buildViteApp(
  'build field app',
  'field',
  ['contract', 'terminal-client', 'browser-audio'],
  ['src', 'index.html', 'vite.config.ts', 'vite', 'package.json'],
);

const agentSources = [
  'packages/contract/src',
  'apps/talk-agent/src',
  'apps/talk-agent/keys',
  'apps/talk-agent/package.json',
  'scripts/buildTalkAgent.mjs',
  'scripts/talkAgentSigning.mjs',
];
if (
  force ||
  newestMtime(agentSources) > mtimeOf('apps/talk-agent/dist/talk-agent.mjs') ||
  (await agentSigningChanged())
) {
  process.stdout.write('> build talk agent\n');
  const { buildTalkAgent } = await import('./buildTalkAgent.mjs');
  await buildTalkAgent();
}

/** True when TALK_AGENT_SIGNING_KEY names another key than the one the built bundle was signed with (or none). */
async function agentSigningChanged() {
  const { keyId, readSigningKey } = await import('./talkAgentSigning.mjs');
  const { createPublicKey } = await import('node:crypto');
  const key = readSigningKey();
  let built;
  try {
    built = JSON.parse(fs.readFileSync(path.join(root, 'apps/talk-agent/dist/talk-agent.json'), 'utf8')).keyId;
  } catch {
    return true;
  }
  return (key ? keyId(createPublicKey(key)) : undefined) !== built;
}
