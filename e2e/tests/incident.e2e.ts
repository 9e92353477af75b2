import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, signInByApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { nameEndingWith, open, toast } from '../support/console.js';
import { openMapSignedIn, pickUserOnMap, waitForMap, waitForMapIdle } from '../support/mapPage.js';
import { RawTerminal } from '../support/rawTerminal.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';

// Incident zones from the live map (issue 32): a circle around the selected user opens an incident,
// its members show in the panel as terminals walk in, the terminals are regrouped, Close ends it.
const browser = useBrowserPerFile({ webgl: true });

const stamp = String(Date.now()).slice(-6);
/** Far from what other files of the run place on the map. */
const SITE: [number, number] = [22.6012, 113.9021];
const north = (metres: number) => SITE[0] + metres / 111_195;
const users: number[] = [];
const incidents: number[] = [];
let adminToken = '';

afterAll(async () => {
  for (const IN_ID of incidents) {
    await fetch(new URL('/api/Incident/Close', inject('baseUrl')), {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ IN_ID }),
    });
  }
  await deleteUsers(adminToken, users);
});

async function walker(name: string, phone: string, metres: number): Promise<RawTerminal> {
  users.push(await createTerminalUser(adminToken, name, phone));
  const terminal = await RawTerminal.login(phone, 'incident.e2e');
  const reply = await terminal.send({
    type: 'position',
    lat: north(metres),
    lon: SITE[1],
    time: Date.now(),
    accuracy: 5,
  });
  expect(reply.type).toBe('ack');
  return terminal;
}

const panel = (page: Page) => page.getByTestId('incident-panel');

describe('incident zones', () => {
  for (const language of ['zh', 'en'] as Language[]) {
    test(`the incident panel in ${language} on a phone's width`, async () => {
      const page = await browser.newPage({ locale: language, width: 390, height: 844 });
      await openMapSignedIn(page, adminCredentials(), '/main/map', language);
      await page.getByTestId('incident-open-panel').click();
      await panel(page).getByText(text(language, 'incident.draw_circle')).waitFor();
      await page.getByRole('button', { name: nameEndingWith(text(language, 'incident.create')) }).waitFor();
      await shot(page, `incident-panel-${language}-390`);
    });
  }

  test('a circle around the selected user: members follow the terminals, which are regrouped; Close ends it', async () => {
    const page = await browser.newPage();
    // Signed in and straight to the map: the page is ready when its map is.
    await signInByApi(page, adminCredentials());
    await open(page, '/main/map');
    await waitForMap(page);
    adminToken = await tokenOf(page);
    const [alphaName, bravoName] = [`Alpha ${stamp}`, `Bravo ${stamp}`];
    const alpha = await walker(alphaName, `137${stamp}41`, 0);
    const bravo = await walker(bravoName, `137${stamp}42`, 2_000);
    await waitForMap(page);
    await pickUserOnMap(page, `137${stamp}41`, alphaName);

    await page.getByTestId('incident-open-panel').click();
    const name = `Fire ${stamp}`;
    await panel(page)
      .getByRole('textbox', { name: en('incident.name') })
      .fill(name);
    await panel(page).getByText(en('incident.zone_user'), { exact: true }).click();
    await panel(page)
      .getByText(en('incident.around', { name: alphaName }))
      .waitFor();
    await panel(page)
      .getByRole('spinbutton', { name: en('incident.radius') })
      .fill('300');
    await page.getByTestId('incident-create').click();
    await toast(page, en('incident.created', { name })).waitFor();

    const { body } = await callApi(adminToken, 'GET', '/api/Incident/QueryData', {
      jsonCondition: JSON.stringify({ Name: name }),
    });
    const row = (body.Data as { IN_ID: number; CID: number; Radius: number; Center: [number, number] }[])[0]!;
    incidents.push(row.IN_ID);
    expect(row.Radius).toBe(300);
    expect(Math.abs(row.Center[0] - SITE[0])).toBeLessThan(1e-6);
    const regrouped = await alpha.push((m) => m.type === 'regrouped' && m.cid === row.CID);
    expect(regrouped).toMatchObject({ name, incident: row.IN_ID });

    // Alpha is listed; Bravo walks in and shows up without a reload.
    const card = page.getByTestId(`incident-${row.IN_ID}`);
    await card.getByText(alphaName).waitFor();
    expect(await card.getByText(bravoName).count()).toBe(0);
    await bravo.send({ type: 'position', lat: north(100), lon: SITE[1], time: Date.now(), accuracy: 5 });
    await bravo.push((m) => m.type === 'regrouped' && m.cid === row.CID);
    await card.getByText(bravoName).waitFor();
    await card.getByText(en('incident.members_other', { count: 2 })).waitFor();
    await waitForMapIdle(page);
    await shot(page, 'incident-panel-en');

    // Close, confirmed: both terminals leave with incident_closed; the list is empty.
    await page.getByTestId(`incident-close-${row.IN_ID}`).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await toast(page, en('incident.closed', { name })).waitFor();
    incidents.pop();
    for (const terminal of [alpha, bravo]) {
      await terminal.push((m) => m.type === 'channelLeft' && m.cid === row.CID && m.reason === 'incident_closed');
    }
    await card.waitFor({ state: 'detached' });
    for (const terminal of [alpha, bravo]) await terminal.logout();
  });
});
