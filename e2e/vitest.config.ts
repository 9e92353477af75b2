import { defineConfig } from 'vitest/config';

/** Browser tests: Debian's Chromium driven by playwright-core against the built app. */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['tests/**/*.e2e.ts'],
    globalSetup: ['./support/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for what the screen shows; the UI gets the same time as a locator wait.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
