import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { DASHBOARD_PATH, submitLogin, waitForPath } from '../support/console.js';
import { en } from '../support/texts.js';

/**
 * Issue 16: the console on plain HTTP at a LAN host name is not a secure context, so WebCrypto is
 * absent and the login envelope is sealed by node-forge. Chromium resolves `intercom.lan` to the
 * test server (--host-resolver-rules) and is not told to treat that origin as secure.
 */

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--host-resolver-rules=MAP intercom.lan 127.0.0.1',
    ],
  });
});
afterAll(async () => {
  await browser.close();
});

describe('login on a non-secure origin', () => {
  test('signs in through the node-forge fallback at http://intercom.lan', async () => {
    const lan = new URL(inject('baseUrl'));
    lan.hostname = 'intercom.lan';
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(new URL('/login', lan).href);
    expect(
      await page.evaluate(() => ({ secure: window.isSecureContext, subtle: Boolean(globalThis.crypto?.subtle) })),
    ).toEqual({
      secure: false,
      subtle: false,
    });
    const before = scripts.length;
    await submitLogin(page, adminCredentials());
    await page.waitForURL((url) => url.pathname === DASHBOARD_PATH);
    await waitForPath(page, DASHBOARD_PATH);
    expect(new URL(page.url()).hostname).toBe('intercom.lan');
    // The forge chunk is fetched only now, for the login.
    expect(scripts.slice(before).some((p) => /sealWithForge|forge/i.test(p))).toBe(true);

    // Issue 13: no microphone for a non-secure page, and the talk panel says so instead of offering browser talk.
    await page.getByTestId('talk-toggle').click();
    await page.getByTestId('talk-panel').getByText(en('talk.status.insecure_context')).waitFor();
    expect(await page.getByTestId('talk-use-browser').count()).toBe(0);
    await page.close();
  });
});
