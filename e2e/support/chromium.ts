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
}

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
