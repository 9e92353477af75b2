import { chromium, type Browser } from 'playwright-core';

/**
 * Launching Debian's Chromium for the browser tests and the benchmarks (no test runner needed here).
 */

/** WebGL without a GPU: ANGLE on SwiftShader (the map tests assert the renderer string). */
export const WEBGL_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export interface LaunchOptions {
  /** Draw WebGL in software (maps); otherwise the GPU is off altogether. */
  webgl?: boolean;
  /** More Chromium flags (e.g. a fake microphone fed from a WAV file for the talk tests). */
  args?: string[];
  /** More Chromium features to turn off (joined to the one `--disable-features` Chromium reads). */
  disableFeatures?: string[];
}

/**
 * The features Playwright 1.65 turns off (its `--disable-features`). Chromium reads only the last
 * `--disable-features` it is given, so ours below repeats them; e2e/tests/chromiumFlags.e2e.ts
 * fails when a Playwright update turns off one more that this list lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AimEnabled',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsFirstBalancedModeAutoEnable',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'NetworkTimeServiceQuerying',
  'OptimizationHints',
  'PaintHolding',
  'PreconnectToSearch',
  'TcpPortRandomizationWin',
  'ThirdPartyStoragePartitioning',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'msForceBrowserSignIn',
];

/**
 * Headless Chromium 156 opens each browser context as a window with its address bar's pop-ups
 * preloaded: two WebUI pages (chrome://omnibox-popup.top-chrome/) in a renderer process of their
 * own, which no test ever shows. In a CI run of 8 December 147 such renderers took 95 CPU s; 30
 * contexts took 14 CPU s with them and 6-8 without (docs/benchmarks.md, "CI runs").
 */
export const NO_OMNIBOX_POPUPS = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'PreloadTopChromeWebUI'];

/** Debian's Chromium; the flags keep it off this machine's closed network. */
export function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      ...(options.webgl ? WEBGL_ARGS : ['--disable-gpu']),
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...NO_OMNIBOX_POPUPS, ...(options.disableFeatures ?? [])].join(',')}`,
      ...(options.args ?? []),
    ],
  });
}

/**
 * Chromium's launch arguments for a fake microphone that plays `wav` (its permission granted
 * without a prompt) and for sound that plays without a click first.
 */
export function fakeMicrophoneArgs(wav: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}
