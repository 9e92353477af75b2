import { SimDevice } from '../../apps/simulator/src/device.js';
import { ffmpegH264Available } from '../../apps/simulator/src/ffmpegH264.js';
import { seededRandom } from '../../apps/simulator/src/movement.js';
import { FleetStats } from '../../apps/simulator/src/stats.js';
import { SimTerminal } from '../../apps/simulator/src/terminal.js';
import { launchBrowser } from '../../e2e/support/chromium.js';
import { text } from '../../e2e/support/texts.js';
import { login } from './login.js';
import { BENCH_PASSWORD, percentile } from './startServer.js';

/**
 * In the page, before the console loads: every picture the console draws from a WebCodecs
 * VideoFrame is noted with its delay, now minus the capture time the frame carries (the console
 * gives each H.264 chunk the frame's capture time in microseconds, docs/terminal-protocol.md).
 * Plain text, not a function: tsx would wrap a function's inner names in helpers the page lacks.
 */
const PAGE_PROBE = `
  window.videoDelays = [];
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (image, ...rest) {
    if (typeof VideoFrame !== 'undefined' && image instanceof VideoFrame) {
      window.videoDelays.push((Date.now() - image.timestamp / 1000 + 2 ** 32) % 2 ** 32);
    }
    return drawImage.call(this, image, ...rest);
  };
`;

export interface GlassSetup {
  serverUrl: string;
  /** A seeded terminal whose user may publish video (in a video channel, VideoEnable on). */
  phone: string;
  password: string;
  /** Its user's name, as the Video page lists it. */
  name: string;
  width: number;
  height: number;
  fps: number;
  seconds: number;
  log: (line: string) => void;
}

/**
 * Glass to glass, as a dispatcher sees it: the simulator's camera draws its test picture, encodes it
 * live with ffmpeg (libx264, zero latency) and sends it over `/terminal`; the server relays it to the
 * console's browser seat in Chromium, which decodes it with WebCodecs and draws it on the Video page.
 * Each delay is capture (before encoding) to drawn, on one clock (one machine).
 */
export async function glassToGlass(setup: GlassSetup) {
  if (!ffmpegH264Available())
    throw new Error('the glass-to-glass step needs ffmpeg with libx264 (apt-get install ffmpeg)');
  const { width, height, fps } = setup;
  const stats = new FleetStats();
  const camera = new SimTerminal({
    url: setup.serverUrl,
    phone: setup.phone,
    password: setup.password,
    device: new SimDevice({ lat: 22.54, lon: 114.05 }, 1, seededRandom(7), 0),
    stats,
    interval: 60,
    video: { codec: 'h264', h264: 'ffmpeg', fps, width, height },
    log: setup.log,
  });
  camera.start();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const token = await login(setup.serverUrl, 'admin', BENCH_PASSWORD, 'DEMO');
    await context.addCookies([
      { name: 'function_access_token', value: token, url: setup.serverUrl, sameSite: 'Strict' },
    ]);
    const page = await context.newPage();
    await page.addInitScript({ content: PAGE_PROBE });
    await page.goto(`${setup.serverUrl}/main/video`);
    const t = (key: string) => text('en', key);
    // The browser seat, as a dispatcher takes it on this page.
    await page.getByTestId('video-talk-login').click();
    await page
      .getByRole('dialog', { name: t('talk.account_title') })
      .getByTestId('talk-login')
      .click();
    const item = page.locator('.ant-list-item', { hasText: setup.name });
    await item.getByRole('button', { name: t('video.watch') }).click();
    // The first pictures: the decoder opens at the first key frame (one a second).
    await page.waitForFunction(
      (pictures) => (window as unknown as { videoDelays: number[] }).videoDelays.length >= pictures,
      2 * fps,
      { timeout: 30_000 },
    );
    await page.evaluate('window.videoDelays.length = 0');
    const encoded = camera.camera?.sent ?? 0;
    const skipped = camera.camera?.skipped ?? 0;
    await new Promise((resolve) => setTimeout(resolve, setup.seconds * 1000));
    const delays = await page.evaluate<number[]>('window.videoDelays.slice()');
    const sent = (camera.camera?.sent ?? 0) - encoded;
    const sorted = [...delays].sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      picture: `${width}x${height} H.264 (ffmpeg libx264 ultrafast, zerolatency), ${fps} fps`,
      chromium: browser.version(),
      seconds: setup.seconds,
      picturesSent: sent,
      picturesSkippedByCamera: (camera.camera?.skipped ?? 0) - skipped,
      picturesDrawn: delays.length,
      glassToGlassMs: {
        p50: round(percentile(sorted, 50)),
        p99: round(percentile(sorted, 99)),
        max: round(sorted.at(-1) ?? Number.NaN),
        goalP99: 300,
      },
    };
  } finally {
    await browser.close();
    await camera.stop();
  }
}
