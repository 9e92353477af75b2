#!/usr/bin/env node
// The console's JavaScript as a visitor downloads it: what the login route loads before it shows
// (per interface language) and the whole console. One measure for `npm test` (run directly, after
// the build: fails over the budget) and for bench/bundle.ts (which checks it against a browser).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_DIST = path.join(root, 'apps/console/dist');

/** Issue 34's goal for the login route's JavaScript, gzip. */
export const LOGIN_GOAL_KB = 200;
/**
 * What `npm test` allows (gzip, the heaviest language): the figure measured when the login page
 * stopped loading antd (issue 34, 2026-11-28: 129.3 KB English, 131.0 KB Japanese; it was 229.0 and
 * 233.2 with antd) and a little room, so it cannot grow unnoticed. Never raise it to pass.
 */
export const LOGIN_BUDGET_KB = 140;

/**
 * The interface languages and the language-specific modules the login route loads for each (its
 * texts; antd's locales load only after sign-in, with antd).
 */
export const LANGUAGE_MODULES = {
  en: [],
  zh: [/virtual:login-messages\/zh$/],
  es: [/virtual:login-messages\/es$/],
  ja: [/virtual:login-messages\/ja$/],
};

/**
 * Modules the login route loads lazily before it shows, besides its language's (LANGUAGE_MODULES).
 * Other lazy imports reachable from it (the signed-in app, every route page a feature declares, the
 * toasts, whole locales) are not loaded there. Static imports always count: that is how the page
 * grew before (zod, antd's Result and toasts). A lazy import the page renders at once must be named
 * here; bench/bundle.ts fails when a browser loads a script this list left out.
 */
export const LOGIN_LAZY = [/src\/features\/auth\/LoginPage\.tsx$/];

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

/** Gzip size (level 9, as the build's .gz files) of a file. */
export function gzipBytes(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** The build manifest (`build.manifest` in apps/console/vite.config.ts). */
export function readManifest(dist = CONSOLE_DIST) {
  const file = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the console first (node scripts/build.mjs)`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function languageOf(key) {
  return Object.entries(LANGUAGE_MODULES).find(([, tests]) => tests.some((t) => t.test(key)))?.[0];
}

/**
 * Manifest keys of the chunks the login route loads for `language`: the page's entry and its
 * static imports, and the lazy imports of LOGIN_LAZY and of the language (each with its own
 * static imports).
 */
export function loginRouteChunks(manifest, language = 'en') {
  if (!(language in LANGUAGE_MODULES)) throw new Error(`unknown language ${language}`);
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('the manifest has no index.html entry');
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
    for (const next of manifest[key].dynamicImports ?? []) {
      if (LOGIN_LAZY.some((test) => test.test(next)) || languageOf(next) === language) visit(next);
    }
  };
  visit(entry);
  return [...seen];
}

/** Each chunk's file, source (manifest key) and gzip bytes, biggest first. */
function sized(dist, manifest, keys) {
  return keys
    .map((key) => ({ file: manifest[key].file, source: key, gzip: gzipBytes(path.join(dist, manifest[key].file)) }))
    .sort((a, b) => b.gzip - a.gzip);
}

/**
 * The login route's JavaScript for every language (the heaviest is the figure) and the whole
 * console's (every .js and .mjs under assets/, workers included).
 */
export function measureBundle(dist = CONSOLE_DIST) {
  const manifest = readManifest(dist);
  const languages = Object.fromEntries(
    Object.keys(LANGUAGE_MODULES).map((language) => {
      const chunks = sized(dist, manifest, loginRouteChunks(manifest, language));
      return [language, { files: chunks.length, gzipKB: kb(chunks.reduce((sum, c) => sum + c.gzip, 0)), chunks }];
    }),
  );
  const [heaviest] = Object.entries(languages).sort((a, b) => b[1].gzipKB - a[1].gzipKB);
  const assets = path.join(dist, 'assets');
  const all = fs.readdirSync(assets).filter((f) => /\.m?js$/.test(f));
  const wholeBytes = all.reduce((sum, f) => sum + gzipBytes(path.join(assets, f)), 0);
  return {
    login: { language: heaviest[0], ...heaviest[1] },
    languages,
    whole: { files: all.length, gzipKB: kb(wholeBytes) },
  };
}

/** The biggest chunks of a login measure, one line each. */
export function biggestChunks(login, count = 6) {
  return login.chunks
    .slice(0, count)
    .map((c) => `  ${kb(c.gzip).toFixed(1).padStart(6)} KB  ${c.file}  (${c.source})`)
    .join('\n');
}

/** The failure message, or null when the login route is within `budgetKB`. */
export function budgetFailure(measure, budgetKB = LOGIN_BUDGET_KB) {
  const { login } = measure;
  if (login.gzipKB <= budgetKB) return null;
  return (
    `The login route loads ${login.gzipKB} KB gzip of JavaScript (${login.files} files, language ` +
    `${login.language}), over its budget of ${budgetKB} KB (goal ${LOGIN_GOAL_KB} KB). Biggest chunks:\n` +
    `${biggestChunks(login)}\n` +
    'Keep what the login page does not show behind a lazy import (scripts/bundleSize.mjs, LOGIN_LAZY).'
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const measure = measureBundle();
  const perLanguage = Object.entries(measure.languages)
    .map(([language, m]) => `${language} ${m.gzipKB} KB (${m.files} files)`)
    .join(', ');
  process.stdout.write(
    `login route JavaScript, gzip: ${perLanguage}; budget ${LOGIN_BUDGET_KB} KB, goal ${LOGIN_GOAL_KB} KB\n` +
      `whole console JavaScript, gzip: ${measure.whole.gzipKB} KB (${measure.whole.files} files)\n`,
  );
  const failure = budgetFailure(measure);
  if (failure) {
    process.stderr.write(`${failure}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `biggest chunks of the login route (${measure.login.language}):\n${biggestChunks(measure.login)}\n`,
  );
}
