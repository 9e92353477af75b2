import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOOR_REVOKE_REASONS } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { deniedReason } from './deniedReason';

const here = path.dirname(fileURLToPath(import.meta.url));
const english = JSON.parse(fs.readFileSync(path.join(here, '../i18n/locales/en/talk.json'), 'utf8')) as Record<
  string,
  unknown
>;

function has(key: string): boolean {
  let node: unknown = english;
  for (const part of key.split('.'))
    node = typeof node === 'object' && node ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string';
}

describe('the talk screen’s texts (namespace talk; the same keys in every language: i18n/locales.test.ts)', () => {
  it('holds every key the talk screens name', () => {
    const sources = fs.readdirSync(here).filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'));
    const used = sources.flatMap((file) =>
      [...fs.readFileSync(path.join(here, file), 'utf8').matchAll(/\bt\('([\w.]+)'/g)].map((m) => m[1]!),
    );
    expect(used.length).toBeGreaterThan(15);
    expect(used.filter((key) => !has(key))).toEqual([]);
  });

  it('has a sentence for every revoke reason, every refusal and every browser problem', () => {
    for (const reason of FLOOR_REVOKE_REASONS) expect(has(`revoked.${reason}`), reason).toBe(true);
    for (const code of ['busy', 'no_mic', 'not_member', 'timeout', 'something_new']) {
      expect(has(`denied.${deniedReason(code)}`), code).toBe(true);
    }
    expect(deniedReason('something_new')).toBe('failed');
    for (const problem of ['insecure_context', 'no_webcodecs']) expect(has(`problem.${problem}`), problem).toBe(true);
  });

  it('names the talk button with the fixed English name', () => {
    expect((english as { ptt: string }).ptt).toBe('Push to talk');
  });
});
