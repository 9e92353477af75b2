import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the packages' TypeScript sources, so they never need a build first.
const contract = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const browserAudio = fileURLToPath(new URL('./packages/browser-audio/src/index.ts', import.meta.url));
const media = fileURLToPath(new URL('./packages/media/src/index.ts', import.meta.url));
const terminalClient = fileURLToPath(new URL('./packages/terminal-client/src/index.ts', import.meta.url));
const agentClient = fileURLToPath(new URL('./packages/agent-client/src/index.ts', import.meta.url));
const alias = {
  '@intercom/agent-client': agentClient,
  '@intercom/browser-audio': browserAudio,
  '@intercom/contract': contract,
  '@intercom/media': media,
  '@intercom/terminal-client': terminalClient,
};

/**
 * Unit and API tests of every package; browser tests live in e2e/ and run separately.
 *
 * `isolate: false`: a worker keeps the modules it has loaded from one test file to the next instead
 * of importing the server, Fastify, Kysely and the rest again for each file. Measured on the server's
 * 119 files (SQLite, 2 cores, idle): 551 s (575 s of CPU) isolated, 351 s (330 s of CPU) not.
 * A file therefore must not rely on module state another file may have changed: every test builds
 * its own app (buildTestApp) and closes it. The component tests (console-dom) stay isolated: React,
 * antd and the console's stores hold module state that one file's render leaves behind.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'contract',
          isolate: false,
          root: './packages/contract',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'media',
          isolate: false,
          root: './packages/media',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser-audio',
          isolate: false,
          root: './packages/browser-audio',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'agent-client',
          isolate: false,
          root: './packages/agent-client',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'terminal-client',
          isolate: false,
          root: './packages/terminal-client',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          isolate: false,
          root: './apps/server',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'simulator',
          isolate: false,
          root: './apps/simulator',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'talk-agent',
          isolate: false,
          root: './apps/talk-agent',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'tools',
          isolate: false,
          root: './scripts',
          include: ['**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'console',
          isolate: false,
          root: './apps/console',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'field',
          isolate: false,
          root: './apps/field',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          // Components, rendered in a simulated DOM and read as a person would (roles, labels, text).
          name: 'console-dom',
          root: './apps/console',
          include: ['src/**/*.test.tsx', 'test/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['./test/setupDom.ts'],
          // The first antd render of a file builds its styles: seconds on a busy 2-core machine.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
