import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { launchBrowser, NO_OMNIBOX_POPUPS } from '../support/chromium.js';

/**
 * The browser tests' Chromium turns off the address bar's preloaded pop-ups (e2e/support/chromium.ts).
 * Chromium reads only the last `--disable-features` of its command line, so that flag must also carry
 * every feature Playwright turns off: this file fails when a Playwright update adds one.
 */
const launched: Browser[] = [];
afterAll(async () => {
  await Promise.all(launched.map((browser) => browser.close()));
});

/** The features the last `--disable-features` of `browser`'s command line names (chrome://version). */
async function disabledFeatures(browser: Browser): Promise<string[]> {
  const page = await browser.newPage();
  await page.goto('chrome://version');
  const commandLine = await page.locator('#command_line').innerText();
  await page.close();
  const flags = commandLine.match(/--disable-features=\S+/g) ?? [];
  return (flags.at(-1) ?? '').replace('--disable-features=', '').split(',').filter(Boolean);
}

describe("the browser tests' Chromium", () => {
  test("keeps every feature Playwright turns off, and opens a context without the address bar's pop-ups", async () => {
    const plain = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    launched.push(plain);
    const ours = await launchBrowser({ disableFeatures: ['LocalNetworkAccessChecks'] });
    launched.push(ours);

    const playwrights = await disabledFeatures(plain);
    expect(playwrights.length).toBeGreaterThan(5);
    const ourFeatures = await disabledFeatures(ours);
    expect(playwrights.filter((feature) => !ourFeatures.includes(feature))).toEqual([]);
    expect(ourFeatures).toEqual(expect.arrayContaining([...NO_OMNIBOX_POPUPS, 'LocalNetworkAccessChecks']));

    /** The address bar's pop-up pages the browser holds, a context with a page open in it. */
    const popups = async (browser: Browser) => {
      const session = await browser.newBrowserCDPSession();
      const { targetInfos } = (await session.send('Target.getTargets', { filter: [{}] })) as {
        targetInfos: { url: string }[];
      };
      await session.detach();
      return targetInfos.filter((target) => target.url.startsWith('chrome://omnibox-popup')).length;
    };
    for (const browser of launched) await (await browser.newContext()).newPage();
    // Without the flag Chromium preloads them (else this check would prove nothing); with it, none.
    await expect.poll(() => popups(plain)).toBeGreaterThan(0);
    expect(await popups(ours)).toBe(0);
  });
});
