import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; the flags keep it off this machine's closed network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

export interface ContextOptions {
  locale?: string;
  width?: number;
  height?: number;
}

export function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
}

/** Saves a screenshot under e2e/screenshots for a person to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`../screenshots/${name}.png`, import.meta.url).pathname, fullPage: true });
}
