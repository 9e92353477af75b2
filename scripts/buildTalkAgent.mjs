#!/usr/bin/env node
// Bundles apps/talk-agent into one Node.js script (talk-agent.mjs) plus talk-agent.json (version, size,
// sha256), which the server hands out at /api/Plugin/Package. Usage: node scripts/buildTalkAgent.mjs [outDir]
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const agentDir = path.join(root, 'apps/talk-agent');

/** Builds into `outDir` (default apps/talk-agent/dist); returns the manifest. */
export async function buildTalkAgent(outDir = path.join(agentDir, 'dist')) {
  const { version } = JSON.parse(fs.readFileSync(path.join(agentDir, 'package.json'), 'utf8'));
  const outfile = path.join(outDir, 'talk-agent.mjs');
  await build({
    entryPoints: [path.join(agentDir, 'src/cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    conditions: ['development'],
    minify: true,
    legalComments: 'eof',
    define: { __TALK_AGENT_VERSION__: JSON.stringify(version) },
    // opusscript is CommonJS and requires Node built-ins; an ESM bundle needs a require of its own.
    banner: {
      js: "import { createRequire as __agentRequire } from 'node:module'; const require = __agentRequire(import.meta.url);",
    },
    // The WASM build of libopus is a second file; the bundle uses the asm.js build (opusCodec.ts).
    external: ['./build/opusscript_native_wasm.js'],
    logLevel: 'warning',
  });
  const content = fs.readFileSync(outfile);
  const manifest = { version, size: content.length, sha256: crypto.createHash('sha256').update(content).digest('hex') };
  fs.writeFileSync(path.join(outDir, 'talk-agent.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const manifest = await buildTalkAgent(process.argv[2]);
  process.stdout.write(`talk-agent.mjs ${manifest.version}, ${manifest.size} bytes\n`);
}
