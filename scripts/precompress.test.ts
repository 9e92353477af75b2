import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { isCompressible, precompress } from './precompress.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the build’s compressed copies', () => {
  it('are written for scripts, workers’ bundles (.mjs) included, styles and pages, not for images', () => {
    for (const name of ['a.js', 'hub.worker-1.mjs', 'b.css', 'index.html', 'c.svg', 'd.json', 'm.webmanifest'])
      expect(isCompressible(name), name).toBe(true);
    for (const name of ['e.png', 'f.woff2', 'g.pbf', 'h.js.br', 'i.mjs.gz'])
      expect(isCompressible(name), name).toBe(false);
  });

  it('sit beside each text asset of 1 KiB or more, and decompress to it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'assets'));
    const worker = `self.onmessage = () => undefined; // ${'w'.repeat(4000)}`;
    fs.writeFileSync(path.join(dir, 'assets', 'maplibre-gl-worker-1.mjs'), worker);
    fs.writeFileSync(path.join(dir, 'assets', 'small.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'assets', 'picture.png'), Buffer.alloc(4000, 1));
    const written = precompress(dir).map((file) => path.relative(dir, file));
    expect(written).toEqual([path.join('assets', 'maplibre-gl-worker-1.mjs')]);
    const base = path.join(dir, 'assets', 'maplibre-gl-worker-1.mjs');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${base}.br`)).toString()).toBe(worker);
    expect(zlib.gunzipSync(fs.readFileSync(`${base}.gz`)).toString()).toBe(worker);
    expect(fs.existsSync(path.join(dir, 'assets', 'small.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'assets', 'picture.png.br'))).toBe(false);
  });
});
