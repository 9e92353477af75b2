import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { DASHBOARD_PATH, openSignedIn, waitForPath } from '../support/console.js';
import { createTerminalUser, deleteUsers, Terminal } from '../support/terminal.js';
import { en } from '../support/texts.js';

// The hub worker's script is served by the test with a recorder in front (trackHubSockets). A
// response fulfilled by the test has no address of its own, and Chromium's Local Network Access
// checks then refuse that worker's WebSocket to 127.0.0.1 (the console falls back to long polling).
// The console's own script, served by its server, is not affected.
const browser = useBrowserPerFile({ disableFeatures: ['LocalNetworkAccessChecks'] });

/** Phones and names carry a stamp so they cannot meet what other files of the run create. */
const stamp = String(Date.now()).slice(-6);
const created: number[] = [];
let adminToken = '';

/** The number the Online card shows (its text reads "Online\n3"). */
async function onlineShown(page: Page): Promise<number> {
  const lines = (await page.getByTestId('stat-Online').innerText()).split('\n');
  return Number(lines.at(-1)?.replace(/\D/g, '') ?? Number.NaN);
}

/** What the server counts, asked with the page's own session. */
async function onlineCounted(page: Page): Promise<number> {
  const { body } = await callApi(await tokenOf(page), 'GET', '/api/Enterprise/Statistics');
  return (body.BaseData as { Online: number }).Online;
}

/** The part of a browser WebSocket the test touches (`WebSocket` here names the `ws` package's). */
interface BrowserSocket {
  readyState: number;
  close(code?: number, reason?: string): void;
}

/**
 * Records the hub's WebSockets, so the test can cut the live connection the way a network drop
 * would (Playwright's routes do not reach an open socket). The console opens it in its hub worker,
 * where no init script runs: the worker's script is served with the recorder in front.
 */
async function trackHubSockets(page: Page): Promise<void> {
  const recorder = `{
    const Native = self.WebSocket;
    const sockets = [];
    self.hubSockets = sockets;
    self.WebSocket = class extends Native {
      constructor(url, protocols) {
        super(url, protocols);
        if (String(url).includes('/FuncService')) sockets.push(this);
      }
    };
  }
`;
  await page.route('**/assets/hub.worker-*.mjs', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: recorder + (await response.text()) });
  });
}

async function cutHubSockets(page: Page): Promise<number> {
  const worker = page.workers().find((candidate) => candidate.url().includes('/hub.worker-'));
  if (!worker) throw new Error('the hub worker is not running');
  return worker.evaluate(() => {
    const sockets = (self as unknown as { hubSockets: BrowserSocket[] }).hubSockets;
    const OPEN = 1;
    const open = sockets.filter((socket) => socket.readyState === OPEN);
    for (const socket of open) socket.close(4000, 'network lost');
    return open.length;
  });
}

afterAll(async () => {
  await deleteUsers(adminToken, created);
});

describe('live connection', () => {
  test('the dashboard follows terminals online and offline, and says when the server is out of reach', async () => {
    const page = await browser.newPage();
    await trackHubSockets(page);
    await openSignedIn(page, adminCredentials());
    await waitForPath(page, DASHBOARD_PATH);
    adminToken = await tokenOf(page);
    const first = `137${stamp}01`;
    const second = `137${stamp}02`;
    created.push(await createTerminalUser(adminToken, `Live A ${stamp}`, first));
    created.push(await createTerminalUser(adminToken, `Live B ${stamp}`, second));

    // Connected: the live mark shows, and the card agrees with the server.
    const live = page.getByTestId('live-indicator');
    await expect.poll(() => live.innerText()).toBe(en('dashboard.live'));
    const base = await onlineCounted(page);
    await expect.poll(() => onlineShown(page)).toBe(base);
    // A marker that a reload would wipe.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const terminalA = await Terminal.login(first, 'live.e2e');
    await expect.poll(() => onlineShown(page)).toBe(base + 1);
    await shot(page, 'live-online-en');
    await terminalA.logout();
    await expect.poll(() => onlineShown(page)).toBe(base);

    // The hub is out of reach: every new attempt fails and the open connection drops.
    await page.route('**/FuncService**', (route) => route.abort());
    expect(await cutHubSockets(page)).toBe(1);
    const banner = page.getByRole('alert').filter({ hasText: en('hub.connection_failed') });
    await banner.waitFor();
    await live.waitFor({ state: 'hidden' });
    await shot(page, 'live-banner-en');

    // Meanwhile a terminal comes online; the console learns of it once it is back.
    const terminalB = await Terminal.login(second, 'live.e2e');
    await page.unroute('**/FuncService**');
    await banner.waitFor({ state: 'hidden', timeout: 40_000 });
    await live.waitFor();
    await expect.poll(() => onlineShown(page)).toBe(base + 1);
    expect(await onlineCounted(page)).toBe(base + 1);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);

    await terminalB.logout();
    await expect.poll(() => onlineShown(page)).toBe(base);
  });
});
