import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const contractSource = fileURLToPath(new URL('../../packages/contract/src/', import.meta.url));
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The console compiles the contract from source: no build step of its own is needed first.
    alias: { '@intercom/contract': `${contractSource}index.ts` },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/FuncService': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      treeshake: {
        // The contract's modules only declare things; without this hint the zod schemas of every
        // contract module would ride along into the login chunk just because one constant is used.
        moduleSideEffects: (id) => (id.startsWith(contractSource) ? false : undefined),
      },
    },
  },
});
