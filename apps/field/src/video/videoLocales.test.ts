import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const english = JSON.parse(fs.readFileSync(path.join(here, '../i18n/locales/en/video.json'), 'utf8')) as Record<
  string,
  unknown
>;

describe('the camera’s texts (namespace video; the same keys in every language: i18n/locales.test.ts)', () => {
  it('holds every key the camera’s screens name', () => {
    const sources = fs.readdirSync(here).filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.'));
    const used = sources.flatMap((file) =>
      [...fs.readFileSync(path.join(here, file), 'utf8').matchAll(/\bt\('([\w.]+)'/g)].map((m) => m[1]!),
    );
    expect(used.sort()).toEqual(['failed', 'on']);
    expect(used.filter((key) => typeof english[key] !== 'string')).toEqual([]);
  });
});
