import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIELD_PERMISSIONS_POLICY } from '../src/http/fieldApp.js';
import { buildTestApp, call } from './helper.js';
import { useTempDir, useTestApp } from './useTestApp.js';

const INDEX = '<!doctype html><title>field</title>';
const CONSOLE_INDEX = '<!doctype html><title>console</title>';
const WORKER = `self.onmessage = () => undefined; // ${'x'.repeat(2000)}`;
const root = useTempDir('intercom-field-');
const t = useTestApp(() => buildTestApp(writeApps()));

/** A built field app and console in `root`, and a file beside them that must never be served. */
function writeApps(): { fieldDir: string; consoleDir: string } {
  const fieldDir = path.join(root, 'field');
  const consoleDir = path.join(root, 'console');
  fs.mkdirSync(path.join(fieldDir, 'assets'), { recursive: true });
  fs.mkdirSync(consoleDir);
  fs.writeFileSync(path.join(fieldDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(fieldDir, 'sw.js'), 'self.skipWaiting()');
  fs.writeFileSync(path.join(fieldDir, 'sw.js.br'), zlib.brotliCompressSync('self.skipWaiting()'));
  fs.writeFileSync(path.join(fieldDir, 'manifest.webmanifest'), '{"name":"Intercom Field"}');
  fs.writeFileSync(path.join(fieldDir, 'assets', 'index-1234.js'), 'console.log(1)');
  fs.writeFileSync(path.join(consoleDir, 'index.html'), CONSOLE_INDEX);
  // A worker's bundle as Vite names it (.mjs), with the build's compressed copy.
  fs.mkdirSync(path.join(consoleDir, 'assets'));
  fs.writeFileSync(path.join(consoleDir, 'assets', 'worker-1234.mjs'), WORKER);
  fs.writeFileSync(path.join(consoleDir, 'assets', 'worker-1234.mjs.br'), zlib.brotliCompressSync(WORKER));
  fs.writeFileSync(path.join(root, 'secret.txt'), 'TOP-SECRET');
  return { fieldDir, consoleDir };
}

describe('serving the field app at /field', () => {
  it('answers /field and its own routes with its page, revalidated, allowed microphone and location only', async () => {
    for (const url of ['/field', '/field/', '/field/anything']) {
      const res = await call(t.app, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['permissions-policy']).toBe(FIELD_PERMISSIONS_POLICY);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect(FIELD_PERMISSIONS_POLICY).toContain('camera=(self)');
    expect(FIELD_PERMISSIONS_POLICY).toContain('usb=()');
  });

  it('serves the manifest, the service worker for the scope /field, and hashed assets', async () => {
    const manifest = await call(t.app, { method: 'GET', url: '/field/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('manifest+json');
    const worker = await call(t.app, { method: 'GET', url: '/field/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['service-worker-allowed']).toBe('/field');
    expect(worker.headers['cache-control']).toBe('no-cache');
    // The build's pre-compressed copy keeps the header (the file sent is then sw.js.br).
    const compressed = await call(t.app, { method: 'GET', url: '/field/sw.js', headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['service-worker-allowed']).toBe('/field');
    const asset = await call(t.app, { method: 'GET', url: '/field/assets/index-1234.js' });
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('404s a missing file instead of sending the page, and never leaves its directory', async () => {
    expect((await call(t.app, { method: 'GET', url: '/field/assets/missing.js' })).statusCode).toBe(404);
    expect((await call(t.app, { method: 'GET', url: '/field/missing.png' })).statusCode).toBe(404);
    for (const url of ['/field/../secret.txt', '/field/..%2fsecret.txt', '/field/%2e%2e/secret.txt']) {
      expect((await call(t.app, { method: 'GET', url })).body, url).not.toContain('TOP-SECRET');
    }
  });

  it('leaves the console where it was', async () => {
    const res = await call(t.app, { method: 'GET', url: '/dashboard' });
    expect(res.body).toBe(CONSOLE_INDEX);
    expect(res.headers['permissions-policy']).toBeUndefined();
  });

  it("sends a worker's bundle (.mjs) compressed to a browser that accepts it, as JavaScript", async () => {
    const url = '/assets/worker-1234.mjs';
    const compressed = await call(t.app, { method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(zlib.brotliDecompressSync(compressed.rawPayload).toString()).toBe(WORKER);
    const plain = await call(t.app, { method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(WORKER);
  });
});
