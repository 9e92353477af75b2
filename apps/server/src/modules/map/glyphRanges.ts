import fs from 'node:fs';
import { createRequire } from 'node:module';
import { BASEMAP_FONT } from '@intercom/contract';
import opentype, { type Font } from 'opentype.js';
import { PbfWriter } from 'pbf';
import { GLYPH_SIZE, sdfGlyph, type SdfGlyph } from './glyphSdf.js';
import { LruCache } from '../../core/lruCache.js';

const require = createRequire(import.meta.url);

/** Noto Sans Regular as @fontsource ships it: one WOFF per script subset. CJK is drawn by the console. */
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese', 'devanagari'];

/** `start-end` of a glyph range MapLibre asks for (256 code points, start a multiple of 256). */
export function parseRange(text: string): number | undefined {
  const match = /^(\d{1,5})-(\d{1,5})\.pbf$/.exec(text);
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return start % 256 === 0 && end === start + 255 && end <= 0xffff ? start : undefined;
}

/** True when MapLibre's comma-joined font stack names the font this server has. */
export function servesFontstack(fontstack: string): boolean {
  return fontstack.split(',').some((name) => name.trim() === BASEMAP_FONT);
}

function encode(fontstack: string, start: number, glyphs: readonly SdfGlyph[]): Buffer {
  const pbf = new PbfWriter();
  pbf.writeMessage(
    1,
    () => {
      pbf.writeStringField(1, fontstack);
      pbf.writeStringField(2, `${start}-${start + 255}`);
      for (const g of glyphs) {
        pbf.writeMessage(
          3,
          () => {
            pbf.writeVarintField(1, g.id);
            if (g.bitmap.length > 0) pbf.writeBytesField(2, g.bitmap);
            pbf.writeVarintField(3, g.width);
            pbf.writeVarintField(4, g.height);
            pbf.writeSVarintField(5, g.left);
            pbf.writeSVarintField(6, g.top);
            pbf.writeVarintField(7, g.advance);
          },
          undefined,
        );
      }
    },
    undefined,
  );
  return Buffer.from(pbf.finish());
}

/** Glyph PBFs of Noto Sans Regular, generated from the font on first request and kept in an LRU. */
export class GlyphRanges {
  private fonts: Font[] | undefined;
  private readonly cache = new LruCache<number, SdfGlyph[]>(64);

  /** The range's PBF under the requested font stack name (empty of glyphs where the font has none). */
  range(fontstack: string, start: number): Buffer {
    let glyphs = this.cache.get(start);
    if (!glyphs) {
      glyphs = this.build(start);
      this.cache.set(start, glyphs);
    }
    return encode(fontstack, start, glyphs);
  }

  private build(start: number): SdfGlyph[] {
    this.fonts ??= SUBSETS.map((subset) => {
      const file = require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-400-normal.woff`);
      const bytes = fs.readFileSync(file);
      return opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    });
    const glyphs: SdfGlyph[] = [];
    for (let id = start; id < start + 256; id++) {
      const char = String.fromCodePoint(id);
      const font = this.fonts.find((f) => f.charToGlyphIndex(char) > 0);
      if (!font) continue;
      const ascender = Math.ceil((font.ascender * GLYPH_SIZE) / font.unitsPerEm);
      glyphs.push(sdfGlyph(id, font.charToGlyph(char), font.unitsPerEm, ascender));
    }
    return glyphs;
  }
}
