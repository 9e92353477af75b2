import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { iconPng } from './iconPng.ts';
import { serviceWorkerSource } from './serviceWorkerSource.ts';

/** Sizes of the manifest's icons (installability wants 192 and 512). */
export const ICON_SIZES = [192, 512] as const;

/** `/field/manifest.webmanifest` (issue 49's fixed interface). */
export function webManifest(): Record<string, unknown> {
  return {
    name: 'Intercom Field',
    short_name: 'Field',
    description: 'Push-to-talk radio and tracker',
    start_url: '/field',
    scope: '/field',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#0f172a',
    theme_color: '#0f172a',
    icons: ICON_SIZES.map((size) => ({
      src: `/field/icon-${size}.png`,
      sizes: `${size}x${size}`,
      type: 'image/png',
      purpose: 'any',
    })),
  };
}

/**
 * Emits the files that make the field app installable: the manifest, its icons (drawn here) and
 * the service worker, whose precache list is every other file of this build.
 */
export function fieldAssets(): Plugin {
  return {
    name: 'field-assets',
    apply: 'build',
    generateBundle(_options, bundle) {
      this.emitFile({
        type: 'asset',
        fileName: 'manifest.webmanifest',
        source: JSON.stringify(webManifest(), null, 2),
      });
      for (const size of ICON_SIZES)
        this.emitFile({ type: 'asset', fileName: `icon-${size}.png`, source: iconPng(size) });
      const files = Object.keys(bundle)
        .filter((name) => !name.startsWith('.vite/'))
        .concat('manifest.webmanifest', ...ICON_SIZES.map((size) => `icon-${size}.png`))
        .sort()
        .map((name) => `/field/${name}`);
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: serviceWorkerSource(files, version) });
    },
  };
}
