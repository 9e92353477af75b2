import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(here, '..');

function read(language: string, namespace: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(here, 'locales', language, `${namespace}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

/** Every leaf key, dotted, with its text. */
function leaves(tree: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(dotted, value);
    else for (const [k, v] of leaves(value as Record<string, unknown>, dotted)) out.set(k, v);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['talk', 'video'].includes(entry.name) ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [file] : [];
  });
}

const namespaces = fs.readdirSync(path.join(here, 'locales', 'en')).map((file) => file.replace(/\.json$/, ''));

describe('field app locales', () => {
  it('has every namespace in every language, with the same keys and placeholders', () => {
    expect(namespaces).toContain('field');
    for (const namespace of namespaces) {
      const english = leaves(read('en', namespace));
      for (const language of LANGUAGES) {
        const other = leaves(read(language, namespace));
        expect([...other.keys()].sort(), `${language}/${namespace}`).toEqual([...english.keys()].sort());
        for (const [key, text] of english) {
          const names = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
          expect(names(other.get(key) ?? ''), `${language}/${namespace}: ${key}`).toEqual(names(text));
          expect(other.get(key)?.trim(), `${language}/${namespace}: ${key}`).toBeTruthy();
        }
      }
    }
  });

  it('holds every key the app’s screens name, and the fixed English names of the main controls', () => {
    const english = leaves(read('en', 'field'));
    const used = sourceFiles(src).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/\bt\('([\w.]+)'/g)].map((m) => m[1]!),
    );
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((key) => !english.has(key))).toEqual([]);
    expect(english.get('signIn.phone')).toBe('Phone');
    expect(english.get('signIn.password')).toBe('Password');
    expect(english.get('signIn.submit')).toBe('Sign in');
    expect(english.get('sos.button')).toBe('SOS');
    expect(english.get('checkIn.ok')).toBe("I'm OK");
  });
});
