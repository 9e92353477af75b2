import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { postJson, tokenOf } from '../support/apiLogin.js';
import { fakeMicrophoneArgs, shot, useBrowserPerFile } from '../support/browser.js';
import { createWebChannel, deleteChannels } from '../support/channels.js';
import { openSignedIn } from '../support/console.js';
import { alarmsOf, PHONE, signInField } from '../support/fieldApp.js';
import { openMapSignedIn } from '../support/mapPage.js';
import { speechWav as makeSpeechWav } from '../support/speechAudio.js';
import { browserSeatOn, closeTalkDrawer, takeBrowserSeat } from '../support/talkPanel.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { fieldText, text } from '../support/texts.js';

/**
 * The field app's push-to-talk (issue 49) between real browsers: Chromium's fake microphone plays an
 * espeak-ng recording into two field pages and a console browser seat in one channel; then an SOS
 * from a field page is answered from the console's banner and the field page hears the dispatcher.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'field-talk-e2e-'));
const speechWav = makeSpeechWav(work, 'Field unit here. I am at the north gate and the road is clear. Over.');

// WebGL for the live map, whose SOS banner answers the call.
const browser = useBrowserPerFile({ webgl: true, args: fakeMicrophoneArgs(speechWav) });

const started = Date.now();
const stamp = String(started).slice(-6);
const users: number[] = [];
const channels: number[] = [];
let token = '';

afterAll(async () => {
  if (token) {
    // An open SOS banner would cover the map of the files after this one.
    const alarms = users.flatMap((uid) => alarmsOf(uid, 'SOS', started));
    if (alarms.length > 0)
      await postJson(token, '/api/Notification/Resolve', { ids: alarms, comment: 'fieldTalk.e2e' });
    await deleteChannels(token, channels);
    await deleteUsers(token, users);
  }
  fs.rmSync(work, { recursive: true, force: true });
});

const talkText = (key: string, params?: Record<string, string | number>) => fieldText('en', 'talk', key, params);

interface Counters {
  sent: number;
  received: number;
  decoded: number;
}

/** The counters line of a field page or a console seat (`data-*` attributes; a console seat has no `received`). */
async function countersOf(stats: Locator): Promise<Counters> {
  const read = async (name: string) => Number((await stats.getAttribute(`data-${name}`)) ?? 0);
  return { sent: await read('sent'), received: await read('received'), decoded: await read('decoded') };
}

/** A phone with the field app signed in as `phone`, on its talk screen in `channel`. */
async function fieldPhone(phone: string, channel: string | null) {
  const page = await browser.newPage(PHONE);
  await signInField(page, phone);
  const ptt = page.getByRole('button', { name: 'Push to talk', exact: true });
  await ptt.waitFor();
  const status = page.getByTestId('talk-status');
  if (channel) await status.getByText(talkText('state.idle', { channel })).waitFor();
  return { page, ptt, status, stats: page.getByTestId('talk-audio-stats') };
}

/** Holds the button with the mouse (pointer down, a pause, up) for `ms`. */
async function holdButton(page: Page, button: Locator, ms: number): Promise<void> {
  await button.hover();
  await page.mouse.down();
  await page.waitForTimeout(ms);
  await page.mouse.up();
}

/** Presses Space on a console page with nothing focused (its push-to-talk key); returns its release. */
async function pressSpace(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.down('Space');
  return () => page.keyboard.up('Space');
}

/** Waits until `counter` of `stats` has grown by at least `least` since `before`. */
async function grows(stats: Locator, counter: keyof Counters, before: Counters, least: number, what: string) {
  await expect
    .poll(async () => (await countersOf(stats))[counter] - before[counter], { message: what, timeout: 10_000 })
    .toBeGreaterThanOrEqual(least);
}

describe('the field app talks', () => {
  test('two phones and a console seat in one channel hear each other', async () => {
    const dispatcher = await browser.newPage();
    await openSignedIn(dispatcher, adminCredentials(), '/Channel/Channel');
    token = await tokenOf(dispatcher);
    const names = [`Field A ${stamp}`, `Field B ${stamp}`];
    const phones = [`138${stamp}01`, `138${stamp}02`];
    for (const [index, name] of names.entries()) users.push(await createTerminalUser(token, name, phones[index]!));
    const channel = `Field talk ${stamp}`;
    const cid = await createWebChannel(token, channel, users, 3);
    channels.push(cid);
    const a = await fieldPhone(phones[0]!, channel);
    const b = await fieldPhone(phones[1]!, channel);
    await dispatcher.goto(new URL(`/Channel/cmember?cid=${cid}`, inject('baseUrl')).href);
    const panel = await browserSeatOn(dispatcher, cid, channel);
    const seatStats = panel.getByTestId('talk-audio-stats');

    // A holds the button 2 s: B sees A's name and receives (nearly) every frame; the seat hears it too.
    const aBefore = await countersOf(a.stats);
    const bBefore = await countersOf(b.stats);
    const seatBefore = await countersOf(seatStats);
    await a.ptt.hover();
    await a.page.mouse.down();
    await b.status.getByText(talkText('state.listening', { name: names[0]! })).waitFor();
    await a.page.waitForTimeout(2000);
    // You are talking, with a timer that has counted (0:01 or more).
    expect(await a.status.getAttribute('data-state')).toBe('talking');
    await a.status.getByText(/0:0[1-9]/).waitFor({ timeout: 1500 });
    await a.page.mouse.up();
    await b.status.getByText(talkText('state.idle', { channel })).waitFor();
    await expect.poll(async () => (await countersOf(a.stats)).sent - aBefore.sent).toBeGreaterThan(50);
    // The last packets drain after the release; the counters are read once more after the talk.
    await a.page.waitForTimeout(1700);
    const sent = (await countersOf(a.stats)).sent - aBefore.sent;
    await grows(b.stats, 'received', bBefore, Math.ceil(sent * 0.9), `B received of ${sent} sent`);
    await grows(b.stats, 'decoded', bBefore, Math.ceil(sent * 0.9), `B decoded of ${sent} sent`);
    await grows(seatStats, 'decoded', seatBefore, Math.ceil(sent * 0.9), `the seat decoded of ${sent} sent`);

    // The console seat talks (Space): both phones show it and decode what it sends.
    const aHeard = await countersOf(a.stats);
    const bHeard = await countersOf(b.stats);
    const seatSent = await countersOf(seatStats);
    const releaseSpace = await pressSpace(dispatcher);
    await expect.poll(() => a.status.getAttribute('data-state')).toBe('listening');
    await expect.poll(() => b.status.getAttribute('data-state')).toBe('listening');
    await dispatcher.waitForTimeout(1500);
    await releaseSpace();
    await dispatcher.waitForTimeout(1700);
    const seatSentNow = (await countersOf(seatStats)).sent - seatSent.sent;
    expect(seatSentNow).toBeGreaterThan(30);
    await grows(a.stats, 'decoded', aHeard, Math.ceil(seatSentNow * 0.9), `A decoded of ${seatSentNow} the seat sent`);
    await grows(b.stats, 'decoded', bHeard, Math.ceil(seatSentNow * 0.9), `B decoded of ${seatSentNow} the seat sent`);

    const [aNow, bNow] = [await countersOf(a.stats), await countersOf(b.stats)];
    console.log(
      `field talk: A sent ${sent}; B received ${bHeard.received - bBefore.received}, decoded ${bHeard.decoded - bBefore.decoded}; ` +
        `the seat decoded ${seatSent.decoded - seatBefore.decoded}. The seat sent ${seatSentNow}; ` +
        `A decoded ${aNow.decoded - aHeard.decoded}, B ${bNow.decoded - bHeard.decoded}`,
    );

    // B asks while A talks: busy, said with A's name.
    await a.ptt.hover();
    await a.page.mouse.down();
    await b.status.getByText(talkText('state.listening', { name: names[0]! })).waitFor();
    await holdButton(b.page, b.ptt, 300);
    await b.status.getByText(talkText('denied.busy', { name: names[0]! })).waitFor();
    await shot(a.page, 'field-talk-talking-en');
    await shot(b.page, 'field-talk-busy-en');
    await a.page.mouse.up();
  }, 120_000);

  test('SOS from a phone: the console answers from the banner and the phone hears the dispatcher', async () => {
    expect(users.length, 'the first test made the users').toBe(2);
    const dispatcher = await browser.newPage();
    await openMapSignedIn(dispatcher, adminCredentials(), '/main/map');
    token = await tokenOf(dispatcher);
    await takeBrowserSeat(dispatcher);
    await closeTalkDrawer(dispatcher);
    const phone = await fieldPhone(`138${stamp}01`, null);

    await holdButton(phone.page, phone.page.getByRole('button', { name: 'SOS', exact: true }), 2600);
    const call = phone.page.getByTestId('talk-call');
    await call.getByText(talkText('call.emergency')).waitFor();
    const banner = dispatcher.getByTestId('map-sos-banner');
    await banner.getByTestId('sos-answer').click();
    await expect.poll(() => banner.getByTestId('sos-call-state').innerText()).toBe(text('en', 'sos.answered'));

    // The dispatcher talks: the phone names the talker and plays the call's frames.
    const before = await countersOf(phone.stats);
    const seatStats = dispatcher.getByTestId('talk-audio-stats');
    const seatBefore = await countersOf(seatStats);
    const releaseSpace = await pressSpace(dispatcher);
    await expect.poll(() => phone.status.getAttribute('data-state')).toBe('listening');
    await dispatcher.waitForTimeout(1500);
    await releaseSpace();
    await phone.status.getByText(talkText('state.idleCall')).waitFor();
    await dispatcher.waitForTimeout(1700);
    const seatSent = (await countersOf(seatStats)).sent - seatBefore.sent;
    expect(seatSent).toBeGreaterThan(30);
    await grows(phone.stats, 'decoded', before, Math.ceil(seatSent * 0.9), `decoded of ${seatSent} the seat sent`);
    await shot(phone.page, 'field-talk-emergency-en');

    // The worker talks back at once in the call, and ends it.
    const seatHeard = await countersOf(seatStats);
    await holdButton(phone.page, phone.ptt, 1500);
    await grows(seatStats, 'decoded', seatHeard, 30, 'the seat decoded the worker');
    await call.getByRole('button', { name: talkText('call.end') }).click();
    await expect.poll(() => banner.getByTestId('sos-call-state').innerText()).toBe(text('en', 'sos.no_call'));
  }, 120_000);
});
