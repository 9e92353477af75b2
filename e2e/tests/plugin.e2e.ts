import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { openSignedIn } from '../support/console.js';
import { AGENT_BUNDLE as bundle, spawnTalkAgent, stopTalkAgent } from '../support/talkAgentProcess.js';
import { text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile();
const PLUGIN_PATH = '/System/plugin';
const version = (
  JSON.parse(fs.readFileSync(new URL('../../apps/talk-agent/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
let agent: ChildProcess | undefined;

afterAll(async () => {
  await stopTalkAgent(agent);
});

async function pluginPage(language: Language, width?: number): Promise<Page> {
  const page = await browser.newPage({ locale: language === 'zh' ? 'zh-CN' : 'en-US', ...(width ? { width } : {}) });
  await openSignedIn(page, adminCredentials(), PLUGIN_PATH, language);
  return page;
}

describe('the talk agent on the plugin page', () => {
  test('offers the package for download and says no agent runs here', async () => {
    const page = await pluginPage('en');
    await page.getByText(text('en', 'plugin.agent_absent')).waitFor();
    const link = page.getByRole('link', { name: text('en', 'plugin.download', { version }) });
    const href = await link.getAttribute('href');
    const download = await fetch(new URL(href!, inject('baseUrl')));
    expect(download.headers.get('x-talk-agent-version')).toBe(version);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(fs.readFileSync(bundle));
    await page
      .getByText(`node talk-agent.mjs --server ${inject('baseUrl')}`)
      .first()
      .waitFor();
    await shot(page, 'plugin-agent-absent-en');
  });

  test('finds the running agent and its version; a page of another origin is refused', async () => {
    agent = await spawnTalkAgent();
    const page = await pluginPage('en');
    await page.getByText(text('en', 'plugin.agent_running', { version })).waitFor();
    await shot(page, 'plugin-agent-running-en');

    const zh = await pluginPage('zh');
    await zh.getByText(text('zh', 'plugin.agent_running', { version })).waitFor();
    await shot(zh, 'plugin-agent-running-zh');
    const phone = await pluginPage('zh', 390);
    await phone.getByText(text('zh', 'plugin.agent_running', { version })).waitFor();
    await shot(phone, 'plugin-agent-running-zh-mobile');

    // localhost is another origin than the console's 127.0.0.1: the agent refuses it at the upgrade.
    const other = await browser.newPage();
    await other.goto(inject('baseUrl').replace('127.0.0.1', 'localhost') + '/readyz');
    const outcome = await other.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket('ws://127.0.0.1:12001');
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('refused');
        }),
    );
    expect(outcome).toBe('refused');
  });
});
