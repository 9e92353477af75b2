import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// The contract's source, not its build: the check must see the keys as they are now.
import { MessageKeys } from '../../../../packages/contract/src/index.ts';
import { LOG_ACTIONS } from '../features/syslog';
import { LANGUAGES } from './languages';

const here = path.dirname(fileURLToPath(import.meta.url));
const srcDir = path.resolve(here, '..');

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

function readLocale(language: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(path.join(here, 'locales', `${language}.json`), 'utf8')) as Tree);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Keys the source names literally: `t('a.b')`, `i18n.t('a.b')` and the `tk('a.b')` marker. */
function keysUsedInSource(): Map<string, string> {
  const used = new Map<string, string>();
  const pattern = /\b(?:t|tk)\(\s*(['"`])([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)\1/g;
  for (const file of sourceFiles(srcDir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      used.set(match[2]!, path.relative(srcDir, file));
    }
  }
  return used;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

const en = readLocale('en');

describe('locales', () => {
  it('en.json holds every key the source uses', () => {
    // A plural key (`t('x', { count })`) is there when i18next finds `x_one` and `x_other`.
    const has = (key: string) => en.has(key) || (en.has(`${key}_one`) && en.has(`${key}_other`));
    const missing = [...keysUsedInSource()].filter(([key]) => !has(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('en.json holds every message key the server may send', () => {
    expect(Object.values(MessageKeys).filter((key) => !en.has(key))).toEqual([]);
  });

  it('en.json names every system-log action', () => {
    const keys = LOG_ACTIONS.map((action) => `syslog.action.${action}`);
    expect(keys.filter((key) => !en.has(key))).toEqual([]);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${language}.json has every key of en.json, each with the same placeholders`, () => {
      const other = readLocale(language);
      expect([...en.keys()].filter((key) => !other.has(key))).toEqual([]);
      expect([...other.keys()].filter((key) => !en.has(key))).toEqual([]);
      const mismatched = [...en].filter(
        ([key, text]) => other.has(key) && placeholders(text).join() !== placeholders(other.get(key)!).join(),
      );
      expect(mismatched.map(([key]) => key)).toEqual([]);
    });

    it(`${language}.json has no empty text`, () => {
      expect([...readLocale(language)].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
    });
  }
});
