import { defineConfig } from 'vitest/config';

/** Browser tests: Debian's Chromium driven by playwright-core against the built app. */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['tests/**/*.e2e.ts'],
    globalSetup: ['./support/globalSetup.ts'],
    fileParallelism: false,
    // One worker runs the files one after another and keeps the loaded modules (support code,
    // playwright-core) between them: each file still launches its own browser.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for what the screen shows; the UI gets the same time as a locator wait.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
