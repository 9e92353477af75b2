import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

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
 * its own app (buildTestApp) and closes it. The component tests (console-dom) share theirs as well,
 * except the files that replace a module with `vi.mock` (console-dom-mocks): a module another file
 * already loaded stays the real one in a worker that keeps it, so those files get fresh modules each.
 * Measured on the 23 component files (2 cores, idle): 64 CPU s all isolated, 35 CPU s as split here
 * (20 all shared, but three SosBanner tests then failed on the real talk client another file had loaded).
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

/**
 * The component tests that replace a module with `vi.mock` (read from their text, so a new one is
 * found without a list to keep): run isolated (above). Paths relative to apps/console.
 */
const consoleRoot = fileURLToPath(new URL('./apps/console/', import.meta.url));
const MOCKING_COMPONENT_TESTS = ['src', 'test']
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(consoleRoot, dir), { recursive: true, encoding: 'utf8' })
      .map((file) => path.join(dir, file)),
  )
  .filter((file) => file.endsWith('.test.tsx'))
  .filter((file) => /\bvi\.(?:do)?[mM]ock\(/.test(fs.readFileSync(path.join(consoleRoot, file), 'utf8')))
  .map((file) => file.split(path.sep).join('/'));

/** Components, rendered in a simulated DOM and read as a person would (roles, labels, text). */
function componentProject(name: string, extra: { isolate?: boolean; include?: string[]; exclude?: string[] }) {
  return {
    resolve: { alias },
    test: {
      name,
      root: './apps/console',
      include: ['src/**/*.test.tsx', 'test/**/*.test.tsx'],
      environment: 'happy-dom',
      setupFiles: ['./test/setupDom.ts'],
      // The first antd render of a file builds its styles: seconds on a busy 2-core machine.
      testTimeout: 20_000,
      ...extra,
    },
  };
}

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
      componentProject('console-dom', {
        isolate: false,
        exclude: [...configDefaults.exclude, ...MOCKING_COMPONENT_TESTS],
      }),
      componentProject('console-dom-mocks', { include: MOCKING_COMPONENT_TESTS }),
    ],
  },
});
