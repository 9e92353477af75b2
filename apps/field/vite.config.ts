import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { fieldAssets } from './vite/fieldAssets.ts';

const contractSource = fileURLToPath(new URL('../../packages/contract/src/', import.meta.url));
const terminalClientSource = fileURLToPath(new URL('../../packages/terminal-client/src/index.ts', import.meta.url));
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  base: '/field/',
  plugins: [react(), fieldAssets()],
  resolve: {
    // Compiled from source like the console: no build step of the packages first.
    alias: { '@intercom/contract': `${contractSource}index.ts`, '@intercom/terminal-client': terminalClientSource },
  },
  server: {
    port: 5174,
    proxy: { '/terminal': { target: apiTarget, changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks the first screen loads, for its JavaScript budget (scripts/bundleSize.mjs).
    manifest: true,
    rolldownOptions: {
      // The contract's modules only declare things: its zod schemas stay out unless used.
      treeshake: { moduleSideEffects: (id: string) => (id.startsWith(contractSource) ? false : undefined) },
    },
  },
});
