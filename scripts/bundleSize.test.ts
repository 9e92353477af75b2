import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetFailure, loginRouteChunks, measureBundle, type Manifest } from './bundleSize.mjs';

/** A build like the console's: the login page, a lazy signed-in app, per-language texts. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    imports: ['_react-b.js'],
    dynamicImports: [
      'src/features/auth/LoginPage.tsx',
      'src/app/AuthenticatedApp.tsx',
      '../../virtual:login-messages/zh',
      '../../node_modules/antd/locale/zh_CN.js',
      'src/i18n/locales/en.json',
    ],
  },
  '_react-b.js': { file: 'assets/react-b.js' },
  'src/features/auth/LoginPage.tsx': { file: 'assets/LoginPage-c.js', isDynamicEntry: true, imports: ['_form-d.js'] },
  '_form-d.js': { file: 'assets/form-d.js', imports: ['_react-b.js'] },
  'src/app/AuthenticatedApp.tsx': { file: 'assets/AuthenticatedApp-e.js', imports: ['_map-f.js'] },
  '_map-f.js': { file: 'assets/map-f.js' },
  '../../virtual:login-messages/zh': { file: 'assets/zh-g.js', isDynamicEntry: true },
  '../../node_modules/antd/locale/zh_CN.js': { file: 'assets/zh_CN-h.js', isDynamicEntry: true },
  'src/i18n/locales/en.json': { file: 'assets/en-i.js', isDynamicEntry: true },
};

describe("the login route's chunks", () => {
  it('are the entry, its imports and its lazy imports, but not the signed-in app nor another language', () => {
    expect(loginRouteChunks(manifest, 'en').sort()).toEqual(
      ['index.html', '_react-b.js', 'src/features/auth/LoginPage.tsx', '_form-d.js'].sort(),
    );
    expect(loginRouteChunks(manifest, 'zh')).toContain('../../virtual:login-messages/zh');
  });

  it("leave out antd's locale: it loads after sign-in, with antd", () => {
    expect(loginRouteChunks(manifest, 'zh')).not.toContain('../../node_modules/antd/locale/zh_CN.js');
  });

  it('count whatever the login page or its lazy chunks import statically', () => {
    const grown: Manifest = {
      ...manifest,
      '_form-d.js': { ...manifest['_form-d.js'], imports: ['_react-b.js', '_zod-j.js'] },
      '_zod-j.js': { file: 'assets/zod-j.js' },
    };
    expect(loginRouteChunks(grown, 'en')).toContain('_zod-j.js');
  });
});

describe('the budget', () => {
  it('fails over the budget, naming the biggest chunks first', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-size-'));
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
    // Random bytes do not compress: each file's gzip size is about its length.
    const sizes: Record<string, number> = { 'form-d.js': 60_000, 'react-b.js': 20_000, 'map-f.js': 500_000 };
    for (const chunk of Object.values(manifest)) {
      const name = path.basename(chunk.file);
      fs.writeFileSync(path.join(dist, chunk.file), crypto.randomBytes(sizes[name] ?? 100));
    }
    const measure = measureBundle(dist);
    expect(measure.login.gzipKB).toBeGreaterThan(78);
    expect(measure.login.gzipKB).toBeLessThan(80);
    // The signed-in app's big chunk is in the whole console, not in the login route.
    expect(measure.whole.gzipKB).toBeGreaterThan(560);
    expect(budgetFailure(measure, 100)).toBeNull();
    const failure = budgetFailure(measure, 50) ?? '';
    expect(failure).toContain('over its budget of 50 KB');
    expect(failure.indexOf('assets/form-d.js')).toBeGreaterThan(0);
    expect(failure.indexOf('assets/form-d.js')).toBeLessThan(failure.indexOf('assets/react-b.js'));
    expect(failure).not.toContain('map-f.js');
  });
});
