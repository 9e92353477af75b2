#!/usr/bin/env node
// Prints the JavaScript a browser needs before the login page paints (entry + the login route's
// static imports) and for the whole app, raw and gzip, as JSON. Run after `vite build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const assets = path.join(dist, 'assets');
const read = (file) => fs.readFileSync(path.join(assets, file));
const gz = (file) => gzipSync(read(file), { level: 9 }).length;

/** A chunk and everything it imports statically (what loads before its code runs). */
function closure(start) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = read(file).toString();
    for (const match of code.matchAll(/(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) {
      visit(match[1]);
    }
  };
  visit(start);
  return seen;
}

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = html.match(/<script[^>]+src="\/assets\/([\w.-]+\.js)"/)?.[1];

const loginChunk = fs.readdirSync(assets).find((f) => /^LoginPage-[\w-]+\.js$/.test(f));
if (!entry || !loginChunk) throw new Error('build output not found: run vite build first');

const beforeLogin = new Set([...closure(entry), ...closure(loginChunk)]);
const allJs = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
const sum = (files, size) => [...files].reduce((total, f) => total + size(f), 0);
const raw = (f) => read(f).length;
const kb = (n) => Math.round(n / 102.4) / 10;

console.log(
  JSON.stringify(
    {
      loginJs: { files: beforeLogin.size, rawKB: kb(sum(beforeLogin, raw)), gzipKB: kb(sum(beforeLogin, gz)) },
      totalJs: { files: allJs.length, rawKB: kb(sum(allJs, raw)), gzipKB: kb(sum(allJs, gz)) },
      loginFiles: [...beforeLogin].sort((a, b) => gz(b) - gz(a)).map((f) => `${f} ${kb(gz(f))}KB`),
    },
    null,
    2,
  ),
);
