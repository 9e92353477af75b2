import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ffmpegH264Available } from '../../apps/simulator/src/ffmpegH264.js';
import { COMPANY_CODE } from '../support/accounts.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { hamburger, submitLogin } from '../support/console.js';
import { en } from '../support/texts.js';
import { decodedPictures, logInVideoSeat } from '../support/video.js';
import { freePort } from '../support/freePort.js';

/**
 * Issue 36: `npm run demo` as a newcomer meets it (scripts/start.mjs --demo on a fresh data
 * directory, no ADMIN_PASSWORD): one start block with everything needed to log in, and the Video
 * page showing the demo's two cameras, one of them watched.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const browser = useBrowserPerFile();
let demo: ChildProcess | undefined;
let exited: Promise<void> = Promise.resolve();
let work = '';
let output = '';
let url = '';

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-demo-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: path.join(work, 'data') };
  // As on a newcomer's machine: no password, database or Redis of ours.
  for (const name of ['ADMIN_PASSWORD', 'DATABASE_URL', 'REDIS_URL', 'HOST', 'LOG_LEVEL']) delete env[name];
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), '--demo'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demo = child;
  exited = new Promise((resolve) => child.once('exit', () => resolve()));
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
  // Ready once the start block says so (the server answers and the fleet starts).
  const deadline = Date.now() + 120_000;
  while (!/demo is ready at/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the demo did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(/demo is ready at (\S+)/.exec(output)?.[1]).toBe(`http://127.0.0.1:${port}`);
  url = `http://127.0.0.1:${port}`;
}, 150_000);

afterAll(async () => {
  // start.mjs passes the signal on to the server and the simulator.
  demo?.kill('SIGTERM');
  await exited;
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** The generated admin password the start block shows once. */
function printedPassword(): string {
  return /Password:\s+(\S+) *\n/.exec(output)?.[1] ?? '';
}

describe('npm run demo', () => {
  test('prints one start block: URL, company code, account, the generated password, where data lives', () => {
    const block = output.slice(output.indexOf('Intercom Management Platform demo is ready'));
    expect(block).toContain(`Company code: ${COMPANY_CODE}`);
    expect(block).toContain('Account:      admin');
    expect(block).toContain(`Data:         ${path.join(work, 'data')}`);
    // The field app's address and a terminal to sign in with, not one the simulator drives (issue 49).
    expect(block).toMatch(/Field app: +http:\/\/\S+\/field /);
    expect(block).toMatch(/Phone \d+, password \S+/);
    expect(printedPassword()).toMatch(/^\S{12,}$/);
    // The generated password is the one kept for this demo directory.
    expect(fs.readFileSync(path.join(work, 'data', 'demo-admin-password'), 'utf8').trim()).toBe(printedPassword());
    // Nothing that sends a newcomer looking for a variable they never set.
    expect(output).not.toContain('ADMIN_PASSWORD');
    expect(output.match(/Password:/g)).toHaveLength(1);
  });

  test('the Video page lists the two demo cameras and shows one moving', async () => {
    const page = await browser.newPage();
    // The page asked for sends the visitor to the login and back (logIn of support/console, on the demo's URL).
    await page.goto(`${url}/main/video`, { waitUntil: 'commit' });
    await submitLogin(page, { account: 'admin', password: printedPassword(), code: COMPANY_CODE });
    await page.waitForURL((address) => address.pathname === '/main/video');
    await hamburger(page).waitFor();
    await logInVideoSeat(page, 'en');
    const watch = page.getByRole('button', { name: en('video.watch') });
    await expect.poll(() => watch.count(), { timeout: 60_000 }).toBe(2);
    // H.264 encoded live by ffmpeg where it is installed (CI installs it), else JPEG.
    const codec = ffmpegH264Available() ? 'H264' : 'JPEG';
    const items = page.locator('.ant-list-item', { has: watch });
    for (const item of await items.all()) expect(await item.getByText(codec, { exact: true }).count()).toBe(1);
    await watch.first().click();
    const canvas = page.locator('[data-testid^="video-canvas-"]').first();
    await canvas.waitFor();
    const uid = Number((await canvas.getAttribute('data-testid'))?.replace('video-canvas-', ''));
    await expect.poll(() => decodedPictures(page, uid), { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    const before = await decodedPictures(page, uid);
    await expect.poll(() => decodedPictures(page, uid)).toBeGreaterThan(before + 3);
    await shot(page, 'demo-video-en');
  });
});
