#!/usr/bin/env node
// The field app's first-screen JavaScript (issue 49: at most 150 KB gzip): what /field loads before
// it shows, in each interface language. Run by `npm test` after the build; fails over the budget.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipBytes, readManifest } from './bundleSize.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIELD_DIST = path.join(root, 'apps/field/dist');
/** Issue 49's budget for the first screen, gzip. Never raise it to pass. */
export const FIELD_BUDGET_KB = 150;
const LANGUAGES = ['en', 'zh', 'es', 'ja'];

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

/**
 * Manifest keys the first screen loads in `language`: the entry and its static imports, and the
 * language's locale files (src/i18n/i18n.ts loads English as the fallback too). With `signedIn`,
 * also the radio (src/app/SignedIn.tsx), the first screen of a kept session.
 */
export function firstScreenChunks(manifest, language, signedIn = false) {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('the field manifest has no index.html entry');
  const wanted = (key) =>
    key.includes(`/i18n/locales/${language}/`) ||
    key.includes('/i18n/locales/en/') ||
    (signedIn && key.endsWith('src/app/SignedIn.tsx'));
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
    for (const next of manifest[key].dynamicImports ?? []) if (wanted(next)) visit(next);
  };
  visit(entry);
  return [...seen];
}

/** Gzip KB of the sign-in screen and of the radio, per language; the heaviest of each. */
export function measureField(dist = FIELD_DIST) {
  const manifest = readManifest(dist);
  const size = (keys) => kb(keys.reduce((sum, key) => sum + gzipBytes(path.join(dist, manifest[key].file)), 0));
  const per = (signedIn) =>
    Object.fromEntries(LANGUAGES.map((l) => [l, size(firstScreenChunks(manifest, l, signedIn))]));
  const signIn = per(false);
  const radio = per(true);
  return { signIn, radio, heaviest: Math.max(...Object.values(signIn), ...Object.values(radio)) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const measure = measureField();
  const line = (m) =>
    Object.entries(m)
      .map(([l, v]) => `${l} ${v} KB`)
      .join(', ');
  process.stdout.write(
    `field app first screen JavaScript, gzip: sign-in ${line(measure.signIn)}; radio ${line(measure.radio)}; ` +
      `budget ${FIELD_BUDGET_KB} KB\n`,
  );
  if (measure.heaviest > FIELD_BUDGET_KB) {
    process.stderr.write(
      `The field app's first screen loads ${measure.heaviest} KB gzip of JavaScript, over its budget of ` +
        `${FIELD_BUDGET_KB} KB: keep what it does not show behind a lazy import.\n`,
    );
    process.exit(1);
  }
}
