import type { ConsoleMessage } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { TalkAgentPorts } from '@intercom/contract';
import { adminCredentials } from '../support/accounts.js';
import { useBrowserPerFile } from '../support/browser.js';
import { openSignedIn, waitForDashboard } from '../support/console.js';
import { en } from '../support/texts.js';

// Issue 51: every page of a console without a local talk agent logged a refused WebSocket to
// 127.0.0.1:12001/12002. Now a browser that never found the agent looks for it when the talk panel
// opens, not at sign-in. No agent runs beside the e2e server (talkAgent.e2e stops its own).
const browser = useBrowserPerFile();

/** Console errors about the agent's ports, as Chromium logs a refused WebSocket. */
const aboutAgent = (message: ConsoleMessage) =>
  message.type() === 'error' &&
  [TalkAgentPorts.talk, TalkAgentPorts.monitor].some((port) => message.text().includes(`127.0.0.1:${port}`));

describe('the talk-agent probe', () => {
  test('page loads without an agent log nothing about it; the talk panel looks when it opens', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (aboutAgent(message)) errors.push(message.text());
    });
    await openSignedIn(page, adminCredentials(), '/');
    await waitForDashboard(page);
    await page.goto(new URL('/System/notify', page.url()).href);
    await page.getByTestId('alarm-list').waitFor();
    // The talk client used to probe at sign-in and offer browser talk 1.5 s later: well past that.
    await page.waitForTimeout(3_000);
    expect(errors).toEqual([]);

    // Positive control: the panel asks for the agent, and the refusal is what this listener sees.
    await page.getByTestId('talk-toggle').click();
    await page.getByTestId('talk-panel').getByText(en('talk.no_agent')).waitFor();
    await expect.poll(() => errors.length).toBeGreaterThan(0);
  });
});
