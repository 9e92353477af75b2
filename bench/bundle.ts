import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { root, startServer } from './support/startServer.js';
import { launchBrowser } from '../e2e/support/chromium.js';

/**
 * JavaScript a visitor downloads before the login page paints (goal: at most 250 KB gzip), and
 * the gzip size of all the console's JavaScript.
 */
const gzipKB = (bytes: Buffer) => Math.round((zlib.gzipSync(bytes, { level: 9 }).length / 1024) * 10) / 10;

const assets = path.join(root, 'apps/console/dist/assets');
const allJs = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
const wholeAppKB =
  Math.round(allJs.reduce((sum, f) => sum + gzipKB(fs.readFileSync(path.join(assets, f))), 0) * 10) / 10;

const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  await page.goto(`${server.url}/login`);
  await page.locator('form').first().waitFor({ state: 'visible' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  const beforePaint = [...scripts].map((p) => path.join(root, 'apps/console/dist', p)).filter((f) => fs.existsSync(f));
  const loginKB = Math.round(beforePaint.reduce((sum, f) => sum + gzipKB(fs.readFileSync(f)), 0) * 10) / 10;
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'bundle',
        login_page_js_files: beforePaint.length,
        login_page_js_gzip_kb: loginKB,
        login_page_goal_kb: 250,
        whole_app_js_files: allJs.length,
        whole_app_js_gzip_kb: wholeAppKB,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await browser.close();
  await server.stop();
}
