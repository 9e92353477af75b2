import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { speechPackets } from '@intercom/media';
import { decodeAudioDown } from '@intercom/terminal-client';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { fakeMicrophoneArgs, shot, useBrowserPerFile } from '../support/browser.js';
import { createWebChannel, deleteChannels } from '../support/channels.js';
import { openSignedIn, userMenu } from '../support/console.js';
import { expectMapUser, expectSelectedUserBesideCard, pickUserOnMap } from '../support/mapPage.js';
import { RawTerminal } from '../support/rawTerminal.js';
import { browserSeatOn, takeBrowserSeat } from '../support/talkPanel.js';
import { decodeFrames, speechWav as makeSpeechWav } from '../support/speechAudio.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { en, text } from '../support/texts.js';

/**
 * Talking from the browser alone (issue 13): Chromium's fake microphone plays an espeak-ng recording;
 * the console is the dispatcher seat on `/terminal` and a raw terminal in the channel listens,
 * talks back and cuts in.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'talk-e2e-'));
const speechWav = makeSpeechWav(
  work,
  'Unit three, this is dispatch. Proceed to the north gate and report when you arrive. Over.',
);

// WebGL for the live map, whose user card places a private call.
const browser = useBrowserPerFile({
  webgl: true,
  args: fakeMicrophoneArgs(speechWav),
});

const stamp = String(Date.now()).slice(-6);
const users: number[] = [];
const channels: number[] = [];
const terminals: RawTerminal[] = [];
let token = '';
let restorePriority = '7';

afterAll(async () => {
  // Logged out and closed before the next file counts who is online.
  await Promise.all(terminals.map((terminal) => terminal.logout().catch(() => undefined)));
  if (!token) return;
  await callApi(token, 'POST', '/api/Account/ModifyConfig', { scCode: 'DispatchPriority', scValue: restorePriority });
  await deleteChannels(token, channels);
  await deleteUsers(token, users);
  fs.rmSync(work, { recursive: true, force: true });
});

async function createChannel(name: string, uids: number[], memberPriority: number): Promise<number> {
  const cid = await createWebChannel(token, name, uids, memberPriority);
  channels.push(cid);
  return cid;
}

/** Holds Space for `ms` with nothing focused; returns when the press began and the terminal heard the floor taken. */
async function holdSpace(page: Page, terminal: RawTerminal, cid: number, ms: number) {
  // Space on a focused button or menu entry belongs to it; with nothing focused it is push-to-talk.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const pressed = Date.now();
  await page.keyboard.down('Space');
  const taken = await terminal.push((m) => m.type === 'floorTaken' && m.cid === cid && m.uid === 0, pressed);
  await page.waitForTimeout(ms);
  const released = Date.now();
  await page.keyboard.up('Space');
  await terminal.push((m) => m.type === 'floorIdle' && m.cid === cid, released);
  return { pressed, takenAt: taken.at, released };
}

describe('talking from the browser alone', () => {
  test('Space talks to a terminal, the terminal is heard, and a higher priority cuts the seat off', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    token = await tokenOf(page);
    const config = await callApi(token, 'GET', '/api/Account/SysConfig');
    restorePriority =
      (config.body.Data as Array<{ Code: string; Value: string }> | undefined)?.find(
        (entry) => entry.Code === 'DispatchPriority',
      )?.Value ?? '7';
    // Seats at priority 2, the member at 5: the member may cut in on the dispatcher.
    await callApi(token, 'POST', '/api/Account/ModifyConfig', { scCode: 'DispatchPriority', scValue: '2' });
    const phone = `136${stamp}01`;
    const name = `Talk A ${stamp}`;
    users.push(await createTerminalUser(token, name, phone));
    const channel = `Talk ${stamp}`;
    const cid = await createChannel(channel, users, 5);
    const terminal = await RawTerminal.login(phone, 'talk.e2e');
    terminals.push(terminal);
    expect((await terminal.send({ type: 'join', cid })).type).toBe('ack');

    await page.goto(new URL(`/Channel/cmember?cid=${cid}`, inject('baseUrl')).href);
    const panel = await browserSeatOn(page, cid, channel, 'en');

    // Hold Space for 2.5 s: the terminal hears the seat take the floor, then the speech, then idle.
    const levelShown = panel.getByTestId('talk-level').waitFor();
    const stats = panel.getByTestId('talk-audio-stats');
    const sentBefore = Number(await stats.getAttribute('data-sent'));
    const { pressed, takenAt, released } = await holdSpace(page, terminal, cid, 2500);
    await levelShown;
    await page.getByText(text('en', 'talk.status.mic_release_success')).first().waitFor();
    await page.waitForTimeout(300);
    const frames = terminal.audio.filter(({ at }) => at >= pressed).map(({ frame }) => frame);
    // One frame per 20 ms of the time the seat held the floor; a machine under heavy load may lose
    // some capture time at the start (the fake device and the worklet start late), never most of it.
    const heldFrames = (released - takenAt) / 20;
    expect(
      frames.length,
      `${frames.length} frames for ${heldFrames} held; Space to floor granted at the terminal: ${takenAt - pressed} ms`,
    ).toBeGreaterThanOrEqual(Math.floor(heldFrames * 0.6));
    // Every frame the browser encoded reached the terminal, the last ones before the release too.
    await expect.poll(async () => Number(await stats.getAttribute('data-sent')) - sentBefore).toBe(frames.length);
    for (const frame of frames) expect(decodeAudioDown(frame)).toMatchObject({ cid, speaker: 0 });
    const heard = decodeFrames(frames, work, 'seat');
    expect(heard.info).not.toMatch(/WARNING|ERROR/i);
    expect(Math.abs(heard.seconds - frames.length * 0.02)).toBeLessThan(0.05);
    // espeak-ng's voice, not silence: speech sits well above -40 dBFS.
    expect(heard.rms).toBeGreaterThan(0.01);
    await shot(page, 'talk-panel-en');

    // The terminal talks: the panel names it and the browser decodes what it sent.
    const decodedBefore = Number(await stats.getAttribute('data-decoded'));
    const packets = speechPackets('unit-three');
    expect((await terminal.send({ type: 'floorRequest', cid })).type).toBe('ack');
    await panel
      .getByText(text('en', 'talk.status.user_speaking_named', { name, duration: '0:00' }).split(' · ')[0]!)
      .first()
      .waitFor();
    await terminal.speak(cid, packets);
    await terminal.send({ type: 'floorRelease', cid });
    await expect
      .poll(async () => Number(await stats.getAttribute('data-decoded')) - decodedBefore, { timeout: 5000 })
      .toBeGreaterThanOrEqual(packets.length - 2);

    // The seat talks, the member (priority 5 over the seats' 2) cuts in: the panel says so plainly.
    const pressedAgain = Date.now();
    await page.keyboard.down('Space');
    await terminal.push((m) => m.type === 'floorTaken' && m.uid === 0, pressedAgain);
    expect((await terminal.send({ type: 'floorRequest', cid })).type).toBe('ack');
    await panel
      .getByTestId('talk-preempted')
      .getByText(text('en', 'talk.status.preempted', { reason: text('en', 'talk.reason.preempted') }))
      .waitFor();
    await page.keyboard.up('Space');
    await shot(page, 'talk-panel-preempted-en');
    await terminal.send({ type: 'floorRelease', cid });
  }, 90_000);

  test('in Chinese, on a phone: the panel is a drawer and every status reads in Chinese', async () => {
    const page = await browser.newPage({ locale: 'zh-CN', width: 390, height: 844 });
    await openSignedIn(page, adminCredentials(), '/Channel/Channel', 'zh');
    const cid = channels[0]!;
    await page.goto(new URL(`/Channel/cmember?cid=${cid}`, inject('baseUrl')).href);
    const panel = await browserSeatOn(page, cid, `Talk ${stamp}`, 'zh');
    await page.getByTestId('talk-drawer').waitFor();
    expect(await page.getByTestId('talk-dock').count()).toBe(0);
    await panel.getByTestId('talk-ptt').getByText(text('zh', 'talk.ptt_hold')).waitFor();
    const button = panel.getByTestId('talk-ptt');
    // Held like a finger or a mouse would: down, a pause, up (hover waits for the drawer to settle).
    await button.hover();
    await page.mouse.down();
    await page.getByText(text('zh', 'talk.status.mic_apply_success')).first().waitFor();
    await panel.getByTestId('talk-level').waitFor();
    await shot(page, 'talk-panel-zh-mobile');
    await page.mouse.up();
    await page.getByText(text('zh', 'talk.status.mic_release_success')).first().waitFor();
    await panel.getByTestId('talk-end-call').click();
    await panel.getByText(text('zh', 'talk.pick_channel')).waitFor();
  }, 60_000);

  test("a private call from the live map's user card: the terminal is rung, hears the seat alone, and is hung up on", async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/main/map');
    token = await tokenOf(page);
    const phone = `136${stamp}03`;
    const name = `Talk C ${stamp}`;
    const uid = await createTerminalUser(token, name, phone);
    users.push(uid);
    const terminal = await RawTerminal.login(phone, 'talk.e2e');
    terminals.push(terminal);
    await terminal.send({ type: 'position', lat: 22.5431, lon: 114.0579, time: Date.now() });
    const panel = await takeBrowserSeat(page, 'en');
    // The search looks among the users the map has a position of.
    await expectMapUser(page, uid, () => true, 'the called user drawn');

    // The card of a user on the map has Call once the seat is in; it rings the terminal.
    const card = await pickUserOnMap(page, phone, name);
    // The talk panel narrows the map; the user is still drawn beside the card, not under it.
    await expectSelectedUserBesideCard(page);
    const asked = Date.now();
    await card.getByRole('button', { name: `${en('talk.private_call')} ${name}` }).click();
    const ring = await terminal.push((m) => m.type === 'callStart', asked);
    const cid = Number(ring.cid);
    expect(cid).toBeGreaterThanOrEqual(0x80000000);
    await panel.getByText(name).first().waitFor();

    // Space talks in the call: the terminal hears the speech on the call's floor, nothing else.
    const { takenAt, released } = await holdSpace(page, terminal, cid, 1500);
    await page.waitForTimeout(300);
    const frames = terminal.audio.filter(({ at }) => at >= takenAt).map(({ frame }) => frame);
    expect(frames.length).toBeGreaterThanOrEqual(Math.floor(((released - takenAt) / 20) * 0.6));
    for (const frame of frames) expect(decodeAudioDown(frame)).toMatchObject({ cid });
    const heard = decodeFrames(frames, work, 'private');
    expect(heard.rms).toBeGreaterThan(0.01);
    await shot(page, 'map-private-call-en');

    // The same button, now End call, hangs up: the terminal is told, and the card offers Call again.
    const hangup = Date.now();
    await card.getByRole('button', { name: `${en('talk.end_call')} ${name}` }).click();
    await terminal.push((m) => m.type === 'callEnd' && m.cid === cid, hangup);
    await card.getByRole('button', { name: `${en('talk.private_call')} ${name}` }).waitFor();
  }, 60_000);

  test('the intercom-account dialog (zh) shows the account read-only and its login takes the browser seat', async () => {
    const page = await browser.newPage({ locale: 'zh-CN' });
    await openSignedIn(page, adminCredentials(), '/Channel/Channel', 'zh');
    await userMenu(page, text('zh', 'talk.account_title'));
    const dialog = page.getByTestId('intercom-account');
    const field = (key: string) => dialog.getByLabel(text('zh', key), { exact: true });
    expect(await field('talk.proxy').inputValue()).toBe(new URL(inject('baseUrl')).origin);
    expect(await field('talk.enterprise_id').inputValue()).toBe('1');
    expect(await field('talk.account_name').inputValue()).toBe(adminCredentials().account);
    expect(await field('talk.phone').inputValue()).toMatch(/^D\d+$/);
    for (const key of ['talk.proxy', 'talk.enterprise_id', 'talk.account_name', 'talk.phone', 'talk.code']) {
      expect(await field(key).getAttribute('readonly')).not.toBeNull();
    }
    // No local talk service here: login waits out the probe, then takes the browser seat.
    await page.waitForTimeout(1600);
    await shot(page, 'talk-intercom-account-zh');
    await page.getByTestId('talk-login').click();
    await page.getByText(text('zh', 'talk.status.login_success')).first().waitFor();
    await page.getByTestId('talk-toggle').click();
    await page.getByTestId('talk-panel').getByText(text('zh', 'talk.mode_browser')).waitFor();
    await userMenu(page, text('zh', 'talk.account_title'));
    await expect.poll(() => field('talk.code').inputValue()).toMatch(/^[A-Za-z0-9_-]{32}$/);
  }, 60_000);
});
