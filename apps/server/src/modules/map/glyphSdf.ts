import type { Glyph, PathCommand } from 'opentype.js';

/** The conventions of node-fontnik, which MapLibre's glyph renderer expects. */
export const GLYPH_SIZE = 24;
const BUFFER = 3;
const RADIUS = 8;
const CUTOFF = 0.25;
const CURVE_STEPS = 4;

/** One glyph of a glyph PBF: a signed distance field of (width + 6) x (height + 6) bytes. */
export interface SdfGlyph {
  id: number;
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

type Segment = [number, number, number, number];

/** The outline as straight segments (curves flattened), in pixels, y down from the baseline. */
function segmentsOf(commands: readonly PathCommand[]): Segment[] {
  const segments: Segment[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  const lineTo = (nx: number, ny: number) => {
    if (nx !== x || ny !== y) segments.push([x, y, nx, ny]);
    x = nx;
    y = ny;
  };
  for (const c of commands) {
    if (c.type === 'M') {
      if (x !== startX || y !== startY) lineTo(startX, startY);
      x = startX = c.x;
      y = startY = c.y;
    } else if (c.type === 'L') {
      lineTo(c.x, c.y);
    } else if (c.type === 'Q') {
      const [x0, y0] = [x, y];
      for (let i = 1; i <= CURVE_STEPS; i++) {
        const t = i / CURVE_STEPS;
        const u = 1 - t;
        lineTo(u * u * x0 + 2 * u * t * c.x1 + t * t * c.x, u * u * y0 + 2 * u * t * c.y1 + t * t * c.y);
      }
    } else if (c.type === 'C') {
      const [x0, y0] = [x, y];
      for (let i = 1; i <= CURVE_STEPS; i++) {
        const t = i / CURVE_STEPS;
        const u = 1 - t;
        const a = u * u * u;
        const b = 3 * u * u * t;
        const d = 3 * u * t * t;
        const e = t * t * t;
        lineTo(a * x0 + b * c.x1 + d * c.x2 + e * c.x, a * y0 + b * c.y1 + d * c.y2 + e * c.y);
      }
    } else {
      lineTo(startX, startY);
    }
  }
  if (x !== startX || y !== startY) lineTo(startX, startY);
  return segments;
}

/**
 * Signed distance (pixels, negative inside) from a point to the outline: the nearest segment, and
 * the non-zero winding number (TrueType's fill rule) for the sign, in one pass over flat coordinates.
 */
function signedDistance(px: number, py: number, flat: Float64Array): number {
  let best = Infinity;
  let winding = 0;
  for (let k = 0; k < flat.length; k += 4) {
    const x1 = flat[k] as number;
    const y1 = flat[k + 1] as number;
    const dx = (flat[k + 2] as number) - x1;
    const dy = (flat[k + 3] as number) - y1;
    const lengthSquared = dx * dx + dy * dy;
    let t = lengthSquared === 0 ? 0 : ((px - x1) * dx + (py - y1) * dy) / lengthSquared;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const ex = x1 + t * dx - px;
    const ey = y1 + t * dy - py;
    const d = ex * ex + ey * ey;
    if (d < best) best = d;
    const cross = dx * (py - y1) - (px - x1) * dy;
    if (y1 <= py) {
      if (y1 + dy > py && cross > 0) winding++;
    } else if (y1 + dy <= py && cross < 0) winding--;
  }
  return winding !== 0 ? -Math.sqrt(best) : Math.sqrt(best);
}

/**
 * The SDF glyph of one character: exact distances to the flattened outline (no rasterising), scaled
 * as node-fontnik does (edge at 192, 8 px radius). `ascender` is the font's ascender in pixels.
 */
export function sdfGlyph(id: number, glyph: Glyph, unitsPerEm: number, ascender: number): SdfGlyph {
  const scale = GLYPH_SIZE / unitsPerEm;
  const advance = Math.round((glyph.advanceWidth ?? 0) * scale);
  const segments = segmentsOf(glyph.getPath(0, 0, GLYPH_SIZE).commands);
  if (segments.length === 0) return { id, bitmap: new Uint8Array(0), width: 0, height: 0, left: 0, top: 0, advance };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x1, y1, x2, y2] of segments) {
    minX = Math.min(minX, x1, x2);
    maxX = Math.max(maxX, x1, x2);
    minY = Math.min(minY, y1, y2);
    maxY = Math.max(maxY, y1, y2);
  }
  const left = Math.floor(minX);
  const topY = Math.floor(minY);
  const width = Math.ceil(maxX) - left;
  const height = Math.ceil(maxY) - topY;
  const w = width + 2 * BUFFER;
  const h = height + 2 * BUFFER;
  const bitmap = new Uint8Array(w * h);
  const flat = Float64Array.from(segments.flat());
  for (let j = 0; j < h; j++) {
    const py = topY - BUFFER + j + 0.5;
    for (let i = 0; i < w; i++) {
      const px = left - BUFFER + i + 0.5;
      const distance = signedDistance(px, py, flat);
      bitmap[j * w + i] = Math.max(0, Math.min(255, Math.round(255 - 255 * (distance / RADIUS + CUTOFF))));
    }
  }
  return { id, bitmap, width, height, left, top: -topY - ascender, advance };
}
