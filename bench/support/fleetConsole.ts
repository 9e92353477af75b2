// The console of bench/fleet.ts: the live map's first frame with every terminal, and the same opening
// before any terminal is online (plainOpening.ts, a Chromium no automation library records, SwiftShader
// as in bench/map.ts: the empty map's first frame is the software GPU's own cost), and one console left open
// on the live map while the fleet runs (Playwright, the same flags).
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/chromium.js';
import { INSTRUMENT_HUB } from './mapProbe.js';
import { plainOpening } from './plainOpening.js';

export interface ConsoleSnapshot {
  /** Navigation start to the first frame drawing (nearly) every online terminal; null when it never came. */
  firstFrameMs: number | null;
  /** The map's first frame (still without users), for scale: the software GPU's own share. */
  firstRenderMs: number | null;
  marks: Record<string, unknown>;
  reason?: string;
}

const mark = (marks: Record<string, unknown>, name: string) => (typeof marks[name] === 'number' ? marks[name] : null);

/**
 * Opens the live map once and returns when it drew every online terminal (99 % of `online`); with
 * `online` 0 (no terminal online yet: the same opening of an empty map), when it drew its first frame.
 */
export async function consoleSnapshot(url: string, token: string, online: number): Promise<ConsoleSnapshot> {
  const probe = `window.__name = (f) => f;\n${INSTRUMENT_HUB}\nwindow.mapProbe.expected = ${Math.floor(online * 0.99)};`;
  const until = online === 0 ? 'firstRender' : 'allUsersFirstFrame';
  try {
    const marks = await plainOpening({ url: `${url}/main/map`, token, probe, timeoutMs: 120_000, until });
    const firstFrameMs = mark(marks, until);
    return {
      firstFrameMs,
      firstRenderMs: mark(marks, 'firstRender'),
      marks,
      ...(firstFrameMs === null ? { reason: `the map did not draw ${online} terminals within 120 s` } : {}),
    };
  } catch (error) {
    return { firstFrameMs: null, firstRenderMs: null, marks: {}, reason: `the opening failed: ${String(error)}` };
  }
}

/** A console on the live map, left open until `close`; resolves once the map has loaded. */
export async function openLiveConsole(
  url: string,
  token: string,
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await launchBrowser({ webgl: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'function_access_token', value: token, url, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await page.goto(`${url}/main/map`, { timeout: 300_000 });
  await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor({ timeout: 300_000 });
  return { browser, close: () => browser.close() };
}
