#!/usr/bin/env node
// Adds or replaces console texts in all four locales at once:
//   node scripts/i18n-add.mjs texts.json
// where texts.json is { "en": { "area": { "key": "…" } }, "zh": {…}, "es": {…}, "ja": {…} }.
// Keys are merged deeply into apps/console/src/i18n/locales/<lang>.json and each file is written
// sorted, so several people adding texts at once neither clash nor reorder each other's keys.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'apps/console/src/i18n/locales');
const LANGUAGES = ['en', 'zh', 'es', 'ja'];

const source = process.argv[2];
if (!source) {
  process.stderr.write('usage: node scripts/i18n-add.mjs texts.json\n');
  process.exit(2);
}
const additions = JSON.parse(fs.readFileSync(source, 'utf8'));
for (const language of LANGUAGES) {
  if (!additions[language]) {
    process.stderr.write(`${source} has no "${language}" texts: every locale needs them\n`);
    process.exit(2);
  }
}

function merge(target, extra) {
  for (const [key, value] of Object.entries(extra)) {
    if (value && typeof value === 'object') {
      if (typeof target[key] === 'string') throw new Error(`"${key}" is a text, not a group`);
      target[key] = merge(target[key] ?? {}, value);
    } else target[key] = value;
  }
  return target;
}

function sorted(value) {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

// A lock directory: mkdir is atomic, so two writers never interleave their read and write.
const lock = path.join(dir, '.i18n-add.lock');
for (let attempt = 0; ; attempt++) {
  try {
    fs.mkdirSync(lock);
    break;
  } catch {
    if (attempt > 200) throw new Error(`${lock} is held: remove it if no i18n-add is running`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}
try {
  for (const language of LANGUAGES) {
    const file = path.join(dir, `${language}.json`);
    const messages = merge(JSON.parse(fs.readFileSync(file, 'utf8')), additions[language]);
    fs.writeFileSync(file, `${JSON.stringify(sorted(messages), null, 2)}\n`);
  }
} finally {
  fs.rmdirSync(lock);
}
process.stdout.write(`added texts from ${source} to ${LANGUAGES.join(', ')}\n`);
