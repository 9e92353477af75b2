import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TALK_RETRY_MS, TalkAgentPorts } from '@intercom/contract';
import { AgentClient } from '@intercom/agent-client';
import { speechPackets } from '@intercom/media';
import { decodeAudioDown } from '@intercom/terminal-client';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, onTestFailed, test } from 'vitest';
import WebSocket from 'ws';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { createWebChannel, deleteChannels } from '../support/channels.js';
import { openSignedIn, userMenu } from '../support/console.js';
import { RawTerminal } from '../support/rawTerminal.js';
import { groupCallFromTree } from '../support/talkPanel.js';
import { decodeFrames, speechWav, wavStats } from '../support/speechAudio.js';
import { spawnTalkAgent, stopTalkAgent, talkAgentLog } from '../support/talkAgentProcess.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { text } from '../support/texts.js';

/**
 * The console with the real local talk agent (issue 13): the bundled agent the server hands out,
 * started as a process with WAV files for microphone and speaker; Chromium signed in to the console
 * finds it on 127.0.0.1:12001/12002 (the only ports the console knows), logs the seat in through the
 * intercom-account dialog, joins a channel from the tree and talks with Space to a raw terminal.
 */
const browser = useBrowserPerFile();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'talk-agent-e2e-'));
const micWav = speechWav(work, 'Dispatch to all units. The north gate is open. Over.', 'mic');
const micSeconds = wavStats(micWav).seconds;
const speakerWav = path.join(work, 'speaker.wav');

const stamp = String(Date.now()).slice(-6);
const users: number[] = [];
const channels: number[] = [];
let terminal: RawTerminal | undefined;
let agent: ChildProcess | undefined;
let token = '';

/** Whether nothing listens on 127.0.0.1:port. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The console only looks on the default ports: refuse plainly when something else holds them. */
async function waitForFreePorts(): Promise<void> {
  const ports = [TalkAgentPorts.monitor, TalkAgentPorts.talk];
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `127.0.0.1:${ports.join(' or ')} is in use (another talk agent, or another test run?): ` +
      'the console looks for the agent only there, so this test needs them free',
  );
}

/** The downloaded script with WAV files for audio, on the default ports. */
async function startAgent(): Promise<void> {
  await waitForFreePorts();
  const origin = inject('baseUrl');
  agent = await spawnTalkAgent(['--allow-origin', origin, '--mic-file', micWav, '--speaker-file', speakerWav]);
}

async function stopAgent(): Promise<void> {
  await stopTalkAgent(agent);
  agent = undefined;
}

/** One command to the running agent, as a console of the server's origin would send it; fails after 10 s without an answer. */
async function agentCommand(cmd: string): Promise<Record<string, unknown>> {
  const url = `ws://127.0.0.1:${TalkAgentPorts.talk}`;
  const client = new AgentClient({
    connect: () => new WebSocket(url, { origin: inject('baseUrl') }),
    timeoutMs: 10_000,
  });
  // The client times out a reply; this bounds the opening handshake too.
  const handshake = setTimeout(() => client.stop(), 10_000);
  try {
    client.start();
    await client.opened();
    return await client.request(cmd);
  } catch (error) {
    throw new Error(`the agent did not answer ${cmd}: ${String(error)}`, { cause: error });
  } finally {
    clearTimeout(handshake);
    client.stop();
  }
}

afterAll(async () => {
  await stopAgent();
  await terminal?.logout().catch(() => undefined);
  if (token) {
    await deleteChannels(token, channels);
    await deleteUsers(token, users);
  }
  fs.rmSync(work, { recursive: true, force: true });
});

/** The one-time code the intercom-account dialog shows for the seat's last login. */
async function dialogCode(page: Page): Promise<string> {
  await userMenu(page, text('en', 'talk.account_title'));
  const field = page.getByTestId('intercom-account').getByLabel(text('en', 'talk.code'), { exact: true });
  await expect.poll(() => field.inputValue()).toMatch(/^[A-Za-z0-9_-]{32}$/);
  const code = await field.inputValue();
  await page.keyboard.press('Escape');
  await page.getByTestId('intercom-account').waitFor({ state: 'hidden' });
  return code;
}

/** Holds Space until the terminal got `frames` audio frames of the seat (or the time is up); returns when pressed. */
async function holdSpace(
  page: Page,
  cid: number,
  frames: number,
  timeoutMs: number,
  whileHeld?: () => Promise<void>,
): Promise<number> {
  const from = terminal!.audio.length;
  // Space on a focused button belongs to it; with nothing focused it is push-to-talk.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const pressed = Date.now();
  await page.keyboard.down('Space');
  await terminal!.push((m) => m.type === 'floorTaken' && m.cid === cid && m.uid === 0, pressed);
  // The panel says the seat holds the floor.
  const you = text('en', 'talk.you_speaking', { duration: '0:00' }).split(' · ')[0]!;
  await page.getByTestId(`talk-floor-${cid}`).first().getByText(you).waitFor();
  await whileHeld?.();
  await expect.poll(() => terminal!.audio.length - from, { timeout: timeoutMs }).toBeGreaterThanOrEqual(frames);
  const released = Date.now();
  await page.keyboard.up('Space');
  await terminal!.push((m) => m.type === 'floorIdle' && m.cid === cid, released);
  return pressed;
}

describe('the console with the local talk agent', () => {
  test('login, group call, Space to a terminal, the terminal heard, and a restarted agent found again', async () => {
    // A failure's report carries the agent's own log: what it sent the server and what came back.
    onTestFailed(() => console.error(`the talk agent's stderr:\n${talkAgentLog(agent) || '(none)'}`));
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/Channel/Channel');
    token = await tokenOf(page);
    const phone = `137${stamp}01`;
    const name = `Agent T ${stamp}`;
    users.push(await createTerminalUser(token, name, phone));
    const channel = `Agent ${stamp}`;
    const cid = await createWebChannel(token, channel, users, 3);
    channels.push(cid);
    terminal = await RawTerminal.login(phone, 'talk-agent.e2e');
    expect((await terminal.send({ type: 'join', cid })).type).toBe('ack');

    await startAgent();
    await page.goto(new URL(`/Channel/cmember?cid=${cid}`, inject('baseUrl')).href);
    await page.getByTestId('talk-toggle').click();
    const panel = page.getByTestId('talk-panel').first();
    // The console finds the agent: agent mode, connected, and no offer to talk from the browser.
    await panel.getByText(text('en', 'talk.mode_agent')).waitFor();
    await panel
      .getByTestId('talk-connection')
      .getByText(text('en', 'talk.connection_connected'), { exact: true })
      .waitFor();
    expect(await panel.getByTestId('talk-use-browser').count()).toBe(0);

    // The intercom-account dialog: its Login fetches a fresh AuthCode and sends Login to the agent.
    await panel.getByTestId('talk-open-login').click();
    await page.getByTestId('talk-login').click();
    await page.getByText(text('en', 'talk.status.login_success')).first().waitFor();
    const dispatchNo = String(((await agentCommand('LoginInfo')).seat as { dispatchNo: string }).dispatchNo);
    await panel.getByText(dispatchNo, { exact: true }).waitFor();
    const firstCode = await dialogCode(page);

    // Group call from the channel tree: the agent joins the channel and makes it current.
    await groupCallFromTree(page, panel, cid, channel);
    expect(await agentCommand('LoginInfo')).toMatchObject({ loggedIn: true, cid, monitor: [cid] });

    // Hold Space: the agent takes the floor and sends its --mic-file; the terminal decodes it whole.
    const fileFrames = Math.floor((micSeconds * 1000) / 20);
    const pressedAt = terminal.audio.length;
    const levelSeen = panel.getByTestId('talk-level').waitFor();
    await holdSpace(page, cid, fileFrames, micSeconds * 1000 + 10_000);
    await levelSeen;
    await page.getByText(text('en', 'talk.status.mic_release_success')).first().waitFor();
    const frames = terminal.audio.slice(pressedAt).map(({ frame }) => frame);
    for (const frame of frames) expect(decodeAudioDown(frame)).toMatchObject({ cid, speaker: 0 });
    const heard = decodeFrames(frames, work, 'seat');
    expect(heard.info).not.toMatch(/WARNING|ERROR/i);
    // The whole file and nothing more (opusdec drops the 6.5 ms pre-skip; the file ends mid-frame).
    expect(Math.abs(heard.seconds - micSeconds), `${heard.seconds} s heard of ${micSeconds} s`).toBeLessThan(0.06);
    expect(heard.rms).toBeGreaterThan(0.01);

    // The terminal talks: the panel names who holds the floor; the agent plays it to --speaker-file.
    const packets = speechPackets('unit-three');
    const before = wavStats(speakerWav).seconds || 0;
    expect((await terminal.send({ type: 'floorRequest', cid })).type).toBe('ack');
    const holder = text('en', 'talk.status.user_speaking_named', { name, duration: '0:00' }).split(' · ')[0]!;
    await panel.getByTestId(`talk-floor-${cid}`).getByText(holder).waitFor();
    const speaking = terminal.speak(cid, packets);
    await page.waitForTimeout(600);
    await shot(page, 'talk-agent-terminal-speaking-en');
    await speaking;
    await terminal.send({ type: 'floorRelease', cid });
    await panel.getByTestId(`talk-floor-${cid}`).getByText(text('en', 'talk.status.idle')).waitFor();
    const spoken = packets.length * 0.02;
    await expect
      .poll(() => wavStats(speakerWav).seconds - before, { timeout: 5000 })
      .toBeGreaterThanOrEqual(spoken * 0.95);
    expect(wavStats(speakerWav).rms).toBeGreaterThan(0.01);

    // Restart the agent: the console finds it within the 5 s retry and logs in with a new code.
    await stopAgent();
    await panel
      .getByTestId('talk-connection')
      .getByText(text('en', 'talk.connection_disconnected'), { exact: true })
      .waitFor();
    await startAgent();
    const listening = Date.now();
    await panel
      .getByTestId('talk-connection')
      .getByText(text('en', 'talk.connection_connected'), { exact: true })
      .waitFor();
    const found = Date.now() - listening;
    await expect.poll(async () => (await agentCommand('LoginInfo')).loggedIn).toBe(true);
    const loggedIn = Date.now() - listening;
    expect(found, `found ${found} ms after the agent listened`).toBeLessThanOrEqual(TALK_RETRY_MS + 1500);
    // The new seat is back in the channel it had; Space talks again.
    await expect.poll(async () => (await agentCommand('LoginInfo')).cid).toBe(cid);
    await panel.getByTestId(`talk-floor-${cid}`).getByText(text('en', 'talk.status.idle')).waitFor();
    expect(await dialogCode(page), `logged in again ${loggedIn} ms after the agent listened`).not.toBe(firstCode);
    await holdSpace(page, cid, 10, 10_000, () => shot(page, 'talk-agent-en'));
  }, 120_000);
});
