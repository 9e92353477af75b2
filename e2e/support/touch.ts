import type { Page } from 'playwright-core';

export interface Point {
  x: number;
  y: number;
}

export interface Finger {
  /** A tap at a page point; apart in time from the next, as a hand taps (not a double tap). */
  tap(at: Point): Promise<void>;
  /** Touches `from`, moves to `to` in steps and lifts. */
  drag(from: Point, to: Point): Promise<void>;
}

/**
 * A finger on the page's screen: Chromium's touch emulation (the main pointer becomes coarse) and
 * touches sent as a phone sends them, which the page receives as touch events and taps as clicks.
 */
export async function fingerOn(page: Page): Promise<Finger> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  // Each touch carries the time a hand would give it: on a loaded machine two messages may arrive
  // half a second apart, which Chromium would otherwise read as a long press (no click).
  // A gesture starts now; its later touches are `afterMs` after the one before.
  let stamp = 0;
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[], afterMs: number) => {
    stamp = type === 'touchStart' ? Math.max(Date.now(), stamp + 500) : stamp + afterMs;
    return cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points, timestamp: stamp / 1000 });
  };
  return {
    async tap(at) {
      // Sent together, in order: Chromium's long-press timer runs in real time from the first.
      await Promise.all([touch('touchStart', [at], 0), touch('touchEnd', [], 60)]);
      await page.waitForTimeout(400);
    },
    async drag(from, to) {
      await touch('touchStart', [from], 0);
      for (let step = 1; step <= 8; step++) {
        const share = step / 8;
        await touch('touchMove', [{ x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share }], 16);
      }
      await touch('touchEnd', [], 16);
    },
  };
}
