import { speechPackets } from '@intercom/media';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { OneSosDevice } from '../../apps/simulator/src/device.js';
import { startFleet, type Fleet } from '../../apps/simulator/src/fleet.js';
import { seededRandom } from '../../apps/simulator/src/movement.js';
import type { SimulatorOptions } from '../../apps/simulator/src/options.js';
import { SIM_ACCOUNT } from '../../apps/simulator/src/simAccount.js';
import { FleetStats } from '../../apps/simulator/src/stats.js';
import { SimTerminal } from '../../apps/simulator/src/terminal.js';
import { adminCredentials } from '../support/accounts.js';
import { callApi, deleteConsoleAccounts, postJson, signInByApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { hamburger } from '../support/console.js';
import { deleteChannels } from '../support/channels.js';
import { fleetOptions } from '../support/fleet.js';
import { openMapSignedIn } from '../support/mapPage.js';
import { groupCallFromTree } from '../support/talkPanel.js';
import { TERMINAL_PASSWORD, createTerminalUser, deleteUsers } from '../support/terminal.js';
import { text } from '../support/texts.js';

/**
 * Issue 51: the demo's simulated terminals tell the dispatcher's story. The simulator (its own
 * code, against the test server) works as its own console account, so a dispatcher signed in as
 * admin stays signed in; its terminals follow an incident into its channel and are heard there; a
 * worker's SOS answered from the live map's banner brings the worker's voice.
 */
const browser = useBrowserPerFile({
  webgl: true,
  args: [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ],
});

const stamp = String(Date.now()).slice(-6);
/** Far from what other files of the run place on the map. */
const SITE = { lat: 22.5203, lon: 114.2207 };
const phones = [0, 1, 2].map((i) => `135${stamp}0${i}`);
const url = inject('baseUrl').replace(/\/$/, '');
const running: (Fleet | SimTerminal)[] = [];
const users: number[] = [];
let token = '';

const options = (): SimulatorOptions =>
  fleetOptions({
    terminals: phones.length,
    centre: SITE,
    radiusKm: 0.2,
    phoneStart: phones[0]!,
    talkEvery: 10,
    talkGroup: phones.length,
  });

afterAll(async () => {
  await Promise.all(running.map((f) => f.stop()));
  if (!token) return;
  const query = { jsonCondition: JSON.stringify({ MobilePhone: { in: phones } }), pageSize: '10' };
  const simulated = (await callApi(token, 'GET', '/api/UserInfo/QueryData', query)).body.Data as { UserID: number }[];
  // The fleet's own alarms (its SOS above all) are resolved too: an unhandled one shows its banner
  // on every later file's map (the e2e server is shared).
  const alarmed = [...users, ...simulated.map((u) => u.UserID)];
  const alarms = await callApi(token, 'GET', '/api/Notification/QueryData', {
    jsonCondition: JSON.stringify({ U_ID: { in: alarmed }, State: { ne: 'resolved' } }),
    pageSize: '500',
  });
  const ids = (alarms.body.Data as { N_ID: number }[]).map((a) => a.N_ID);
  if (ids.length > 0) await postJson(token, '/api/Notification/Resolve', { ids, comment: 'demoFleet.e2e' });
  await deleteUsers(token, alarmed);
  const found = await callApi(token, 'GET', '/api/THChannel/QueryChannel', { search: `Sim ${phones[0]}` });
  await deleteChannels(
    token,
    (found.body.Data as { CID: number }[]).map((c) => c.CID),
  );
  await deleteConsoleAccounts(token, SIM_ACCOUNT);
});

/** Opens the talk panel and takes the browser seat (no agent runs here). */
async function takeBrowserSeat(page: Page): Promise<Locator> {
  await page.getByTestId('talk-toggle').click();
  const panel = page.getByTestId('talk-panel').first();
  await panel.getByText(text('en', 'talk.no_agent')).waitFor();
  await panel.getByTestId('talk-use-browser').click();
  await page.getByText(text('en', 'talk.status.login_success')).first().waitFor();
  return panel;
}

/** Opus packets the browser seat has decoded so far. */
async function decoded(page: Page): Promise<number> {
  return Number(await page.getByTestId('talk-audio-stats').getAttribute('data-decoded'));
}

/** True while the console session of `bearer` answers. */
async function signedIn(bearer: string): Promise<boolean> {
  const { body } = await callApi(bearer, 'GET', '/api/Account/Profile');
  return body.BaseResult.Code === 8888;
}

describe('the simulated fleet in the console', () => {
  test('a dispatcher signed in as admin stays signed in while the simulator starts again', async () => {
    // The first start sets the simulator's own account up with admin, as the demo's first start does.
    const first = await startFleet(options(), () => undefined);
    await first.stop();

    const page = await browser.newPage();
    await openMapSignedIn(page, adminCredentials(), '/main/map');
    token = await tokenOf(page);
    await takeBrowserSeat(page);
    const lines: string[] = [];
    const fleet = await startFleet(options(), (line) => lines.push(line));
    running.push(fleet);
    await expect.poll(() => fleet.stats.loggedIn, { timeout: 30_000 }).toBe(phones.length);
    expect(lines.join('\n')).not.toContain('setting up the console account');
    expect(await signedIn(token)).toBe(true);
    // The page still works: a reload stays on the live map, no login form, no "signed in elsewhere".
    await page.reload();
    await hamburger(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/main/map');
    // Not signed out: no login form, no session message (an SOS banner of the fleet may show: the e2e server is shared).
    expect(await page.getByLabel(text('en', 'login.password'), { exact: true }).count()).toBe(0);
    for (const key of ['error.session_replaced', 'error.session_ended', 'error.token_missing'] as const) {
      expect(await page.getByText(text('en', key)).count(), key).toBe(0);
    }
    await shot(page, 'demo-fleet-signed-in-en');
  });

  test('an incident over the simulated terminals: a seat in its channel hears one of them within 60 s', async () => {
    const page = await browser.newPage();
    await signInByApi(page, adminCredentials());
    token = await tokenOf(page);
    const name = `Fleet fire ${stamp}`;
    const zone = { Name: name, Kind: 'circle', Center: [SITE.lat, SITE.lon], Radius: 2_000 };
    const created = await postJson(token, '/api/Incident/Create', zone);
    expect(created.body.BaseResult.Code, created.body.BaseResult.Message).toBe(8888);
    const { IN_ID, CID } = created.body.BaseData as { IN_ID: number; CID: number };
    try {
      await page.goto(`${url}/Channel/cmember?cid=${CID}`);
      const panel = await takeBrowserSeat(page);
      await groupCallFromTree(page, panel, CID, name);
      const before = await decoded(page);
      await expect.poll(async () => (await decoded(page)) - before, { timeout: 60_000 }).toBeGreaterThanOrEqual(50);
      await shot(page, 'demo-fleet-incident-heard-en');
    } finally {
      await postJson(token, '/api/Incident/Close', { IN_ID });
    }
  });

  test("an SOS answered from the live map's banner brings the worker's voice", async () => {
    const page = await browser.newPage();
    await openMapSignedIn(page, adminCredentials(), '/main/map');
    token = await tokenOf(page);
    await takeBrowserSeat(page);
    const drawer = page.getByTestId('talk-drawer');
    if (await drawer.isVisible()) await page.keyboard.press('Escape');
    const phone = `135${stamp}50`;
    users.push(await createTerminalUser(token, `Worker ${stamp}`, phone));
    const worker = new SimTerminal({
      url,
      phone,
      password: TERMINAL_PASSWORD,
      device: new OneSosDevice(SITE, 0.2, seededRandom(11), 0),
      stats: new FleetStats(),
      interval: 1,
      log: () => undefined,
      speech: speechPackets('unit-three'),
    });
    running.push(worker);
    worker.start();
    const banner = page.getByTestId('map-sos-banner');
    const answer = banner.getByTestId('sos-answer');
    await answer.waitFor({ timeout: 30_000 });
    await answer.click();
    await expect.poll(() => banner.getByTestId('sos-call-state').innerText()).toBe(text('en', 'sos.answered'));
    // The worker speaks again within seconds of the answer: its Opus frames reach the browser.
    const before = await decoded(page);
    await expect.poll(async () => (await decoded(page)) - before, { timeout: 15_000 }).toBeGreaterThanOrEqual(50);
    await shot(page, 'demo-fleet-sos-answered-en');
  });
});
