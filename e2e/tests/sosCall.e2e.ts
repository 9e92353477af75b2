import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeAudioDown } from '@intercom/terminal-client';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { fakeMicrophoneArgs, shot, useBrowserPerFile } from '../support/browser.js';
import { openMapSignedIn } from '../support/mapPage.js';
import type { RawTerminal } from '../support/rawTerminal.js';
import { useSosPhones } from '../support/sosPhones.js';
import { speechWav as makeSpeechWav } from '../support/speechAudio.js';
import { closeTalkDrawer, takeBrowserSeat } from '../support/talkPanel.js';
import { text, type Language } from '../support/texts.js';

/**
 * An SOS answered by voice (issue 32): a raw terminal sends `sos`, the console's banner on the live
 * map offers Answer, the dispatcher (the browser itself is the seat, with Chromium's fake
 * microphone) answers and holds Space, and the terminal hears the dispatcher in the emergency call.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sos-e2e-'));
const speechWav = makeSpeechWav(work, 'Dispatch here. Help is on the way. Stay where you are.');

const browser = useBrowserPerFile({
  webgl: true,
  args: fakeMicrophoneArgs(speechWav),
});

const phones = useSosPhones('sosCall.e2e');
let token = '';

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The live map with the browser as the dispatcher seat (no agent runs here). */
async function mapWithBrowserSeat(page: Page, language: Language) {
  await openMapSignedIn(page, adminCredentials(), '/main/map', language);
  token = await tokenOf(page);
  await takeBrowserSeat(page, language);
  // On a phone the panel is a drawer over the map: close it so the banner is in reach.
  await closeTalkDrawer(page);
}

/** A terminal user logged in, who raises SOS; resolves with the emergency call's cid. */
async function sos(phoneSuffix: string): Promise<{ terminal: RawTerminal; cid: number }> {
  const { terminal, sent } = await phones.raise(token, 'SOS', phoneSuffix, { text: 'sosCall.e2e' });
  const start = await terminal.push((m) => m.type === 'callStart' && m.emergency === true, sent);
  return { terminal, cid: Number(start.cid) };
}

describe('SOS opens an emergency call', () => {
  test('the dispatcher answers from the banner and is heard by the terminal in the emergency call', async () => {
    const page = await browser.newPage();
    await mapWithBrowserSeat(page, 'en');
    const { terminal, cid } = await sos('01');
    const banner = page.getByTestId('map-sos-banner');
    const answer = banner.getByTestId('sos-answer');
    await answer.waitFor();
    expect(await banner.getByTestId('sos-call-state').innerText()).toBe(text('en', 'sos.offered'));
    for (const action of ['sos-listen', 'sos-locate', 'sos-track']) await banner.getByTestId(action).waitFor();
    await shot(page, 'sos-banner-en');

    // Answer by keyboard: Tab to it, Enter.
    await answer.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => banner.getByTestId('sos-call-state').innerText()).toBe(text('en', 'sos.answered'));
    await shot(page, 'sos-answered-en');

    // Hold Space with nothing focused: the seat takes the call's floor and the terminal hears it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const pressed = Date.now();
    await page.keyboard.down('Space');
    await terminal.push((m) => m.type === 'floorTaken' && m.cid === cid && m.uid === 0, pressed);
    await page.waitForTimeout(1500);
    await page.keyboard.up('Space');
    await terminal.push((m) => m.type === 'floorIdle' && m.cid === cid, pressed);
    const frames = terminal.audio.filter(({ at }) => at >= pressed).map(({ frame }) => decodeAudioDown(frame));
    expect(frames.length).toBeGreaterThan(10);
    for (const frame of frames) expect(frame).toMatchObject({ cid, speaker: 0 });
    expect(frames.every((frame) => (frame?.opus.length ?? 0) > 0)).toBe(true);

    // The terminal hangs up: the banner no longer offers the call.
    expect((await terminal.send({ type: 'hangup', cid })).type).toBe('ack');
    await expect.poll(() => banner.getByTestId('sos-call-state').innerText()).toBe(text('en', 'sos.no_call'));
  });

  test('the banner in Chinese on a phone', async () => {
    const page = await browser.newPage({ locale: 'zh', width: 390, height: 844 });
    await mapWithBrowserSeat(page, 'zh');
    const { terminal, cid } = await sos('02');
    const banner = page.getByTestId('map-sos-banner');
    await banner.getByTestId('sos-answer').waitFor();
    // antd spaces a two-character Chinese button label out.
    expect((await banner.getByTestId('sos-answer').innerText()).replace(/\s/g, '')).toBe(text('zh', 'sos.answer'));
    await shot(page, 'sos-banner-zh-390');
    await banner.getByTestId('sos-listen').click();
    await expect.poll(() => banner.getByTestId('sos-call-state').innerText()).toBe(text('zh', 'sos.listening'));
    expect((await terminal.send({ type: 'hangup', cid })).type).toBe('ack');
  });
});
