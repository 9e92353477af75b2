import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { useBrowserPerFile } from '../support/browser.js';
import { openSignedIn } from '../support/console.js';

/**
 * A screen left open and untouched draws nothing: no animation that runs for ever, no frame loop. A
 * dispatcher keeps the console open all shift; the dashboard's pulsing "Live" dots once kept the page
 * drawing 60 frames a second, which in a browser compositing on SwiftShader took 1.7 cores. WebGL is
 * on, so the map screens are checked too. One sign-in, then the console's own navigation from screen
 * to screen (as the menu does), so the test costs a second or two a screen.
 */
const browser = useBrowserPerFile({ webgl: true });

const SCREENS = [
  '/Managent/dashboard',
  '/Managent/Enterprise',
  '/Managent/User',
  '/Managent/Account',
  '/Managent/Resource',
  '/Managent/BatchUser',
  '/Channel/Channel',
  '/Channel/RecdHis',
  '/System/notify',
  '/System/syslog',
  '/System/subject',
  '/System/plugin',
  '/main/map',
  '/main/trace',
  '/main/geofence',
  '/main/safety',
  '/main/video',
];

/** What a screen at rest reads as. */
const AT_REST = 'still; endless animations: none';

/** Counts the page's animation frames (requestAnimationFrame callbacks run) from its first script on. */
function countFrames(): void {
  const counter = { frames: 0 };
  (window as unknown as { __frames: typeof counter }).__frames = counter;
  const request = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    request((time) => {
      counter.frames++;
      callback(time);
    });
}

/** Frames the page ran in a second of doing nothing, and its CSS animations that never end. */
async function idleSecond(page: Page): Promise<{ frames: number; endless: string[] }> {
  const before = await page.evaluate(() => (window as unknown as { __frames: { frames: number } }).__frames.frames);
  await page.waitForTimeout(1000);
  return page.evaluate((start) => {
    const endless = document
      .getAnimations()
      .filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations === Infinity)
      .map((animation) => {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        return `${(animation as CSSAnimation).animationName ?? 'animation'} on ${target ? `${target.tagName}.${String(target.className)}` : '?'}`;
      });
    return { frames: (window as unknown as { __frames: { frames: number } }).__frames.frames - start, endless };
  }, before);
}

/** Goes to `path` the way the console's links do (history and popstate), without loading the page again. */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

describe('screens at rest', () => {
  test('every screen draws nothing while nobody touches it', async () => {
    const page = await browser.newPage();
    await page.addInitScript(countFrames);
    await openSignedIn(page, adminCredentials(), SCREENS[0]);
    const restless: string[] = [];
    for (const path of SCREENS) {
      if (path !== SCREENS[0]) {
        const before = await page.title();
        await navigate(page, path);
        // The tab's title names the screen shown (each screen has its own): the new screen is up.
        await page.waitForFunction((title) => document.title !== title, before);
      }
      await page.waitForLoadState('networkidle');
      // Loading ends at its own pace (tiles fade in, skeletons go); a screen that draws for ever never settles.
      let rest = '';
      for (let attempt = 0; attempt < 15; attempt++) {
        const { frames, endless } = await idleSecond(page);
        rest = `${frames <= 1 ? 'still' : `${frames} frames a second`}; endless animations: ${endless.join(', ') || 'none'}`;
        if (rest === AT_REST) break;
      }
      if (rest !== AT_REST) restless.push(`${path}: ${rest}`);
    }
    expect(restless).toEqual([]);
  });
});
