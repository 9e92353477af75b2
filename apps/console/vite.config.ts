import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { LOGIN_MESSAGES_PREFIX, LOGIN_NAMESPACES } from './src/i18n/loginNamespaces.ts';

const contractSource = fileURLToPath(new URL('../../packages/contract/src/', import.meta.url));
const browserAudioSource = fileURLToPath(new URL('../../packages/browser-audio/src/index.ts', import.meta.url));
const terminalClientSource = fileURLToPath(new URL('../../packages/terminal-client/src/index.ts', import.meta.url));
const agentClientSource = fileURLToPath(new URL('../../packages/agent-client/src/index.ts', import.meta.url));
const localeDir = fileURLToPath(new URL('./src/i18n/locales/', import.meta.url));
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';
/**
 * The contract's modules only declare things; without this hint the zod schemas of every contract
 * module would ride along into the login chunk (or a worker) just because one constant is used.
 */
const contractTreeshake = {
  moduleSideEffects: (id: string) => (id.startsWith(contractSource) ? false : undefined),
};

/**
 * `virtual:login-messages/<language>`: the login route's key groups cut from the one locale file
 * of that language. The locale files stay whole (the locale test and the browser tests read them);
 * only the bundle is split, so the login page's JavaScript does not grow with every new screen.
 */
function loginMessages(): Plugin {
  const resolvedPrefix = `\0${LOGIN_MESSAGES_PREFIX}`;
  return {
    name: 'login-messages',
    resolveId(id) {
      return id.startsWith(LOGIN_MESSAGES_PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(resolvedPrefix)) return undefined;
      const language = id.slice(resolvedPrefix.length);
      if (!/^[a-z]{2}$/.test(language)) throw new Error(`login-messages: bad language ${language}`);
      const file = `${localeDir}${language}.json`;
      this.addWatchFile(file);
      const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      const subset = Object.fromEntries(LOGIN_NAMESPACES.filter((ns) => ns in all).map((ns) => [ns, all[ns]]));
      return `export default ${JSON.stringify(subset)};`;
    },
  };
}

export default defineConfig({
  plugins: [react(), loginMessages()],
  resolve: {
    // The console compiles the contract, the terminal client and the browser audio from source: no build step of their own first.
    alias: {
      '@intercom/agent-client': agentClientSource,
      '@intercom/browser-audio': browserAudioSource,
      '@intercom/contract': `${contractSource}index.ts`,
      '@intercom/terminal-client': terminalClientSource,
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/FuncService': { target: apiTarget, changeOrigin: true, ws: true },
      // Browser talk: the console is a dispatcher seat on the terminal gateway.
      '/terminal': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  worker: {
    // Module workers, named .mjs: MapLibre imports a script into its workers with `import()` only
    // when the name ends so (mapLibreWorkerUsersProtocol.ts); any other it evaluates, which the
    // server's Content-Security-Policy forbids.
    format: 'es',
    rolldownOptions: { treeshake: contractTreeshake, output: { entryFileNames: 'assets/[name]-[hash].mjs' } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunk each module landed in, for the login page's JavaScript
    // budget (scripts/bundleSize.mjs, run by npm test and bench/bundle.ts).
    manifest: true,
    // CONSOLE_MINIFY=0 keeps function names, for the CPU profiles of bench/map.ts (MAP_BENCH_PROFILE).
    minify: process.env.CONSOLE_MINIFY !== '0',
    // MapLibre GL is one chunk of about 1,060 kB, loaded by the map pages only; it cannot be split
    // further. Every other chunk stays under 800 kB; the login page has its own budget (bench/bundle.ts).
    chunkSizeWarningLimit: 1100,
    rolldownOptions: { treeshake: contractTreeshake },
  },
});
