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

/** Glyphs made between two turns of the event loop (about 3 ms each). */
const GLYPHS_PER_SLICE = 8;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  private fonts: Promise<Font[]> | undefined;
  private readonly cache = new LruCache<number, SdfGlyph[]>(64);
  /** Ranges being built: a second request for one waits for the same work. */
  private readonly building = new Map<number, Promise<SdfGlyph[]>>();

  /** The range's PBF under the requested font stack name (empty of glyphs where the font has none). */
  async range(fontstack: string, start: number): Promise<Buffer> {
    let glyphs = this.cache.get(start);
    if (!glyphs) {
      let pending = this.building.get(start);
      if (!pending) {
        pending = this.build(start).finally(() => this.building.delete(start));
        this.building.set(start, pending);
      }
      glyphs = await pending;
      this.cache.set(start, glyphs);
    }
    return encode(fontstack, start, glyphs);
  }

  private loadFonts(): Promise<Font[]> {
    this.fonts ??= (async () => {
      const fonts: Font[] = [];
      for (const subset of SUBSETS) {
        const file = require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-400-normal.woff`);
        const bytes = await fs.promises.readFile(file);
        fonts.push(opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
        await yieldToLoop();
      }
      return fonts;
    })();
    return this.fonts;
  }

  /**
   * A range takes about a second of SDF work (bench/basemap.ts): it yields to the event loop every
   * few glyphs so the first label of a range does not hold up the hub and the terminals meanwhile.
   */
  private async build(start: number): Promise<SdfGlyph[]> {
    const fonts = await this.loadFonts();
    const glyphs: SdfGlyph[] = [];
    for (let id = start; id < start + 256; id++) {
      if (id % GLYPHS_PER_SLICE === 0) await yieldToLoop();
      const char = String.fromCodePoint(id);
      const font = fonts.find((f) => f.charToGlyphIndex(char) > 0);
      if (!font) continue;
      const ascender = Math.ceil((font.ascender * GLYPH_SIZE) / font.unitsPerEm);
      glyphs.push(sdfGlyph(id, font.charToGlyph(char), font.unitsPerEm, ascender));
    }
    return glyphs;
  }
}
