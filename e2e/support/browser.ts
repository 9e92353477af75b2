import fs from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type LaunchOptions } from './chromium.js';

/** How long a wait for something on screen may take before the test fails. */
export const UI_TIMEOUT_MS = 10_000;

const screenshotDir = new URL('../screenshots/', import.meta.url).pathname;

export { WEBGL_ARGS, fakeMicrophoneArgs, launchBrowser, type LaunchOptions } from './chromium.js';

/**
 * The browser tests' WebGL browsers draw the page in software and only WebGL itself on SwiftShader.
 * With SwiftShader also compositing every layer of the page, the GPU process took 17-27 CPU s per
 * map test file and most of CI's GPU time; composited in software, 75 % less (incident and trace:
 * 32.1 against 8.0 CPU s), and each file runs a few seconds quicker (docs/benchmarks.md, "CI runs").
 * The benchmarks keep Chromium's default, GPU compositing, as a dispatcher's browser has it.
 */
const TEST_COMPOSITING_ARGS = ['--disable-gpu-compositing'];

export interface ContextOptions {
  locale?: string;
  width?: number;
  height?: number;
}

export async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    acceptDownloads: true,
    // As a system set to reduce motion: dialogs, menus and toasts appear at once (AntdConfig). A
    // click on a dialog still zooming in could land where its button was a frame before, and on a
    // loaded CI a click was lost, likely so (talkAgent.e2e's Login once never reached the agent).
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(UI_TIMEOUT_MS * 2);
  return context;
}

/** What may still move on a loaded page: a chart (recharts' wrapper of its SVG), or a skeleton where a part still loads. */
const MOVING = '.recharts-wrapper, .ant-skeleton';

/**
 * Saves a screenshot under e2e/screenshots for a person to look at, once the page stands still.
 * Charts draw with script animations that Playwright's `animations: 'disabled'` does not stop, so on
 * a page with a chart (or a skeleton where a part such as the charts still loads) that markup must
 * first read the same for 750 ms (a chart may wait 400 ms before it starts to move); reading markup
 * is far cheaper than comparing images. A page with neither is taken at once: waiting on every SVG
 * (antd draws its icons as SVG) cost 750 ms or more in each of 91 screenshots, over a minute of every
 * browser-test run.
 */
export async function shot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await saveShot(page, name);
}

/**
 * Whether `shot` saves its pictures. `.ci/run` sets E2E_SCREENSHOTS=0: a CI machine's pictures are
 * gone with its clone, and its 93 pictures took about 25 s of Chromium's CPU in every run
 * (docs/benchmarks.md, "CI runs"). A failed test's pages are saved whatever it says.
 */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS !== '0';

/** `shot`'s picture, taken once the page stands still. */
async function saveShot(page: Page, name: string): Promise<void> {
  const drawing = () =>
    page.evaluate((moving) => [...document.querySelectorAll(moving)].map((node) => node.outerHTML).join(''), MOVING);
  let previous = await drawing();
  let still = previous === '' ? 3 : 0;
  for (let attempt = 0; attempt < 24 && still < 3; attempt++) {
    await page.waitForTimeout(250);
    const current = await drawing();
    still = current === previous ? still + 1 : 0;
    previous = current;
  }
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}${name}.png`, fullPage: true, animations: 'disabled', caret: 'hide' });
}

/** Where the init script below keeps the page's long tasks (start and length, in ms). */
const LONG_TASKS = '__e2eLongTasks';

/** Records the page's long tasks from its first script on, for a failed test's log. */
function watchLongTasks(key: string): void {
  const tasks: [number, number][] = [];
  (window as unknown as Record<string, unknown>)[key] = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * Where a page's time went since its last navigation, in ms: when it is read, the slowest requests
 * (start..end), and the main thread's long tasks. A wait that timed out on a loaded CI then tells
 * whether the page waited for the server, for its own script, or for nothing the page saw.
 */
async function timeline(page: Page): Promise<string[]> {
  return page.evaluate((key) => {
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .map((entry) => ({ name: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd }))
      .sort((a, b) => b.end - b.start - (a.end - a.start))
      .slice(0, 5)
      .map(({ name, start, end }) => `${name} ${Math.round(start)}..${Math.round(end)}`);
    const tasks = ((window as unknown as Record<string, unknown>)[key] ?? []) as [number, number][];
    const total = tasks.reduce((sum, [, duration]) => sum + duration, 0);
    const longest = [...tasks].sort((a, b) => b[1] - a[1]).slice(0, 5);
    return [
      `timeline: read at ${Math.round(performance.now())} ms, ${performance.getEntriesByType('resource').length} requests, the slowest: ${resources.join(', ')}`,
      `long tasks: ${tasks.length}, ${total} ms in all, the longest (at+ms): ${longest.map(([at, ms]) => `${at}+${ms}`).join(', ')}`,
    ];
  }, LONG_TASKS);
}

/** The texts of a page's open dialogs, alerts and messages, a line each, for a failed test's log. */
async function onScreen(page: Page): Promise<string[]> {
  const selector = '.ant-modal, [role="alert"], .ant-message-notice, .ant-notification-notice';
  const texts = await page
    .locator(selector)
    .evaluateAll((nodes) =>
      nodes
        .filter((node) => (node as HTMLElement).offsetParent !== null)
        .map((node) => (node as HTMLElement).innerText),
    );
  return texts.map((text) => `shown: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
}

export interface BrowserSession {
  /** A page in a fresh context (own cookies and storage, like another browser); closed after the test. */
  newPage(options?: ContextOptions): Promise<Page>;
}

/**
 * The browsers of this run, one per set of launch options. The test files run one after another in
 * one worker that keeps its modules (e2e/vitest.config.ts), so a file whose options an earlier file
 * had reuses that file's Chromium: 38 launches became 9 (a launch costs a second or more of several
 * processes' CPU). Each test still gets fresh contexts, which share nothing. They end with the
 * worker: Playwright closes the browsers it launched when its process exits.
 */
const browsers = new Map<string, Promise<Browser>>();

/** This run's Chromium for `options`, launched on first use (again if it has gone). */
async function sharedBrowser(options: LaunchOptions): Promise<Browser> {
  const key = JSON.stringify({
    webgl: options.webgl ?? false,
    args: options.args ?? [],
    disableFeatures: options.disableFeatures ?? [],
  });
  const running = browsers.get(key);
  if (running) {
    const browser = await running.catch(() => undefined);
    if (browser?.isConnected()) return browser;
  }
  const launched = launchBrowser(options);
  browsers.set(key, launched);
  return launched;
}

/**
 * A Chromium for the test file (shared with earlier files of the same launch options, above), a new
 * context per page. Contexts close after each test; when a test
 * fails, every page it had open is saved as e2e/screenshots/failed-<test>-<n>.png first, and what
 * it showed (dialogs, alerts, messages), its answers over 399 and its failed requests are written
 * to the log: a CI machine's screenshots are gone with it, its log is kept.
 */
export function useBrowserPerFile(options: LaunchOptions = {}): BrowserSession {
  let browser: Browser | undefined;
  let open: BrowserContext[] = [];
  const troubles = new WeakMap<Page, string[]>();

  beforeAll(async () => {
    browser = await sharedBrowser(
      options.webgl ? { ...options, args: [...(options.args ?? []), ...TEST_COMPOSITING_ARGS] } : options,
    );
  });
  afterEach(async ({ task }) => {
    const contexts = open;
    open = [];
    if (task.result?.state === 'fail') {
      const pages = contexts.flatMap((context) => context.pages());
      const name = task.name.replace(/[^\w-]+/g, '_').slice(0, 80);
      for (const [index, page] of pages.entries()) {
        await saveShot(page, `failed-${name}-${index + 1}`).catch(() => undefined);
        const shown = await onScreen(page).catch((error: unknown) => [String(error)]);
        const times = await timeline(page).catch((error: unknown) => [String(error)]);
        console.error(
          [
            `failed "${task.name}", page ${index + 1} at ${page.url()}`,
            ...shown,
            ...times,
            ...(troubles.get(page) ?? []),
          ].join('\n  '),
        );
      }
    }
    await Promise.all(contexts.map((context) => context.close()));
  });
  afterAll(async () => {
    // A test that ended without its afterEach (a timeout in a hook) may leave contexts open.
    await Promise.all(open.map((context) => context.close().catch(() => undefined)));
    open = [];
  });

  return {
    async newPage(options) {
      if (!browser) throw new Error('the browser starts in beforeAll; call newPage inside a test');
      const context = await newContext(browser, options);
      open.push(context);
      const page = await context.newPage();
      await page.addInitScript(watchLongTasks, LONG_TASKS);
      const answers: string[] = [];
      troubles.set(page, answers);
      page.on('response', (response) => {
        if (response.status() < 400) return;
        const { pathname } = new URL(response.url());
        answers.push(`${new Date().toISOString()} ${response.status()} ${response.request().method()} ${pathname}`);
      });
      page.on('requestfailed', (request) => {
        const { pathname } = new URL(request.url());
        answers.push(`${new Date().toISOString()} ${request.failure()?.errorText} ${request.method()} ${pathname}`);
      });
      return page;
    },
  };
}
