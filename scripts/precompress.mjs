// The build's compressed copies of the apps' text assets (scripts/build.mjs).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Text assets worth a compressed copy: scripts (`.mjs` too: Vite names the workers' bundles so, and
 * MapLibre's worker alone is 520 KB), styles, pages, images in SVG and data in JSON.
 */
const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Smaller files are sent as they are: a compressed copy would save less than its headers. */
const MIN_BYTES = 1024;

/** Whether `file` (a name) gets `.gz` and `.br` copies when it is at least MIN_BYTES long. */
export function isCompressible(file) {
  return TEXT.test(file);
}

/**
 * Writes `.gz` and `.br` beside each text asset of `dir` (recursively); the server sends them to
 * clients that accept them (`preCompressed` of @fastify/static). Returns the files compressed.
 */
export function precompress(dir) {
  const written = [];
  for (const name of fs.readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, String(name));
    if (!isCompressible(file) || !fs.statSync(file).isFile()) continue;
    const content = fs.readFileSync(file);
    if (content.length < MIN_BYTES) continue;
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    written.push(file);
  }
  return written;
}
