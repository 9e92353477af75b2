import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the packages' TypeScript sources, so they never need a build first.
const contract = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const media = fileURLToPath(new URL('./packages/media/src/index.ts', import.meta.url));
const terminalClient = fileURLToPath(new URL('./packages/terminal-client/src/index.ts', import.meta.url));
const alias = { '@intercom/contract': contract, '@intercom/media': media, '@intercom/terminal-client': terminalClient };

/** Unit and API tests of every package; browser tests live in e2e/ and run separately. */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'media',
          root: './packages/media',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'terminal-client',
          root: './packages/terminal-client',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
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
          root: './scripts',
          include: ['**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'console',
          root: './apps/console',
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
