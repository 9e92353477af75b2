import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp, call, expectFailure } from './helper.js';
import { useTempDir, useTestApp } from './useTestApp.js';

const INDEX = '<!doctype html><title>console</title>';
const root = useTempDir('intercom-console-');
const t = useTestApp(() => buildTestApp({ consoleDir: writeConsole() }));

/** A built console in `root`, and a sibling directory whose name starts like the console's: never reachable. */
function writeConsole(): string {
  const consoleDir = path.join(root, 'dist');
  fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(consoleDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(consoleDir, 'assets', 'app-1234.js'), 'console.log(1)');
  fs.mkdirSync(path.join(root, 'dist-secret'));
  fs.writeFileSync(path.join(root, 'dist-secret', 'key.txt'), 'TOP-SECRET');
  return consoleDir;
}

describe('serving the console', () => {
  it('answers client-side routes with index.html, never cached', async () => {
    for (const url of ['/', '/login?user=a&psd=secret&code=c', '/dashboard', '/system/log']) {
      const res = await call(t.app, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache and 404s a missing one', async () => {
    const asset = await call(t.app, { method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await call(t.app, { method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('never serves a file outside the console directory', async () => {
    for (const url of [
      '/../dist-secret/key.txt',
      '/..%2fdist-secret%2fkey.txt',
      '/%2e%2e/dist-secret/key.txt',
      '/assets/../../dist-secret/key.txt',
      '/....//dist-secret/key.txt',
    ]) {
      const res = await call(t.app, { method: 'GET', url });
      expect(res.body, url).not.toContain('TOP-SECRET');
    }
  });

  it('keeps the JSON 404 envelope for unknown /api paths', async () => {
    expectFailure(await call(t.app, { method: 'GET', url: '/api/NoSuch/Thing' }), 404, 4004, 'error.not_found');
    expectFailure(await call(t.app, { method: 'POST', url: '/api/NoSuch/Thing' }), 404, 4004, 'error.not_found');
  });

  it('still guards the API', async () => {
    expectFailure(await call(t.app, { method: 'GET', url: '/api/Account/LoginInfo' }), 401, 50008);
  });
});
