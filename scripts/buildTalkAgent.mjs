#!/usr/bin/env node
// Bundles apps/talk-agent into one Node.js script (talk-agent.mjs) plus talk-agent.json (version, size,
// sha256, and the Ed25519 signature when TALK_AGENT_SIGNING_KEY names a key file), which the server
// hands out at /api/Plugin/Package. Usage: node scripts/buildTalkAgent.mjs [outDir]
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { readSigningKey, signPackage, trustedKeys } from './talkAgentSigning.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const agentDir = path.join(root, 'apps/talk-agent');

/**
 * One file: libopus's WASM goes into the script (base64, handed to the Emscripten module as
 * `wasmBinary`) instead of a second file beside it, and the asm.js fallback (600 KB, and too slow for
 * real time: 28 ms to encode a 20 ms frame on a busy machine, bench/talkAgent.ts) is left out.
 */
const inlineOpusWasm = {
  name: 'inline-opus-wasm',
  setup(build) {
    build.onLoad({ filter: /opusscript[\\/]index\.js$/ }, async (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const wasm = fs.readFileSync(path.join(path.dirname(args.path), 'build/opusscript_native_wasm.wasm'));
      const wasmCall = 'require("./build/opusscript_native_wasm.js")()';
      const asmCall = 'require("./build/opusscript_native_nasm.js")()';
      if (!source.includes(wasmCall) || !source.includes(asmCall))
        throw new Error('opusscript changed: review inlineOpusWasm');
      const contents = source
        .replace(
          wasmCall,
          `require("./build/opusscript_native_wasm.js")({ wasmBinary: Buffer.from("${wasm.toString('base64')}", "base64") })`,
        )
        .replace(asmCall, '(() => { throw new Error("the asm.js build of opusscript is not bundled"); })()');
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * Builds into `outDir` (default apps/talk-agent/dist); returns the manifest. `signingKey` (default: the
 * file TALK_AGENT_SIGNING_KEY names) signs the bundle, and the bundle trusts it for its own updates.
 */
export async function buildTalkAgent(outDir = path.join(agentDir, 'dist'), signingKey = readSigningKey()) {
  const updateKeys = trustedKeys(path.join(agentDir, 'keys'), signingKey);
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
    define: {
      __TALK_AGENT_VERSION__: JSON.stringify(version),
      __TALK_AGENT_UPDATE_KEYS__: JSON.stringify(JSON.stringify(updateKeys)),
    },
    // opusscript is CommonJS (require, __dirname); an ESM bundle needs them defined.
    banner: {
      js: [
        "import { createRequire as __agentRequire } from 'node:module';",
        "import { fileURLToPath as __agentPath } from 'node:url';",
        'const require = __agentRequire(import.meta.url);',
        'const __filename = __agentPath(import.meta.url);',
        "const __dirname = __agentPath(new URL('.', import.meta.url));",
      ].join(' '),
    },
    plugins: [inlineOpusWasm],
    logLevel: 'warning',
  });
  const content = fs.readFileSync(outfile);
  const manifest = {
    version,
    size: content.length,
    sha256: crypto.createHash('sha256').update(content).digest('hex'),
    ...(signingKey ? signPackage(signingKey, version, content) : {}),
  };
  fs.writeFileSync(path.join(outDir, 'talk-agent.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const manifest = await buildTalkAgent(process.argv[2]);
  process.stdout.write(
    `talk-agent.mjs ${manifest.version}, ${manifest.size} bytes, ${manifest.keyId ? `signed by key ${manifest.keyId}` : 'unsigned'}\n`,
  );
}
