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
/** A project of the packages' test files; its workers keep loaded modules between files (above). */
function project(name: string, root: string, extra: Record<string, unknown> = {}) {
  return {
    resolve: { alias },
    test: { name, isolate: false, root, include: ['test/**/*.test.ts'], ...extra },
  };
}

/** Server-side projects: they start real apps and sockets, so they get longer timeouts and forks. */
const SERVER_LIKE = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

/** The console and the field app keep their tests beside the sources as well as under test/. */
const SOURCES_AND_TESTS = { include: ['src/**/*.test.ts', 'test/**/*.test.ts'] };

export default defineConfig({
  test: {
    projects: [
      project('contract', './packages/contract'),
      project('media', './packages/media'),
      project('browser-audio', './packages/browser-audio'),
      project('agent-client', './packages/agent-client'),
      project('terminal-client', './packages/terminal-client'),
      project('server', './apps/server', SERVER_LIKE),
      project('simulator', './apps/simulator', SERVER_LIKE),
      project('talk-agent', './apps/talk-agent', SERVER_LIKE),
      {
        test: {
          name: 'tools',
          isolate: false,
          root: './scripts',
          include: ['**/*.test.ts'],
        },
      },
      project('console', './apps/console', SOURCES_AND_TESTS),
      project('field', './apps/field', SOURCES_AND_TESTS),
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
