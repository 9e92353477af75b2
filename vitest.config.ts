import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the packages' TypeScript sources, so they never need a build first.
const contract = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const media = fileURLToPath(new URL('./packages/media/src/index.ts', import.meta.url));
const alias = { '@intercom/contract': contract, '@intercom/media': media };

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
          name: 'console',
          root: './apps/console',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
