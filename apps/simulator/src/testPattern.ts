import jpeg from 'jpeg-js';

/** 5x7 glyphs of the clock's characters, one row a string. */
const GLYPHS: Record<string, readonly string[]> = {
  '0': ['01110', '10001', '10011', '10101', '11001', '10001', '01110'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11110', '00001', '00001', '01110', '00001', '00001', '11110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
  ':': ['00000', '01100', '01100', '00000', '01100', '01100', '00000'],
  '.': ['00000', '00000', '00000', '00000', '00000', '01100', '01100'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/** Colour bars of the background (RGB). */
const BARS = [
  [192, 192, 192],
  [192, 192, 0],
  [0, 192, 192],
  [0, 192, 0],
  [192, 0, 192],
  [192, 0, 0],
  [0, 0, 192],
] as const;

/** `HH:MM:SS.mmm` of a wall-clock time, UTC. */
export function clockText(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
}

/**
 * A test picture drawn in memory and encoded as a baseline JPEG: colour bars, a bar that moves one
 * step a frame (motion is visible), and the capture time as a large clock, so the delay between a
 * terminal and a dispatcher's screen can be read off a photo of both.
 */
export class TestPattern {
  private readonly rgba: Buffer;

  constructor(
    readonly width = 320,
    readonly height = 240,
    private readonly quality = 70,
  ) {
    this.rgba = Buffer.alloc(width * height * 4);
  }

  /** The JPEG of frame number `index`, showing `time`. */
  frame(index: number, time: number, label = ''): Buffer {
    return jpeg.encode({ data: this.draw(index, time, label), width: this.width, height: this.height }, this.quality)
      .data;
  }

  /**
   * The raw picture of frame number `index`, showing `time`: RGBA, `width * height * 4` bytes (one
   * buffer, drawn over at every call), for an encoder of its own such as ffmpeg's.
   */
  draw(index: number, time: number, label = ''): Buffer {
    this.background();
    const bar = Math.floor((index * 4) % this.width);
    this.rect(bar, 0, 6, this.height, [255, 255, 255]);
    const scale = Math.max(1, Math.floor(this.width / 80));
    const text = clockText(time);
    const textWidth = text.length * 6 * scale;
    const y = Math.floor(this.height / 2 - 4 * scale);
    this.rect(0, y - 2 * scale, this.width, 11 * scale, [0, 0, 0]);
    this.text(text, Math.floor((this.width - textWidth) / 2), y, scale);
    const small = Math.max(1, Math.floor(scale / 2));
    if (label) this.text(label.slice(0, Math.floor(this.width / (6 * small))), 2 * small, 2 * small, small);
    return this.rgba;
  }

  /** Opaque colour bars over the whole picture: the last one ends at the right edge. */
  private background(): void {
    this.rgba.fill(255);
    const barWidth = Math.ceil(this.width / BARS.length);
    for (const [n, colour] of BARS.entries()) this.rect(n * barWidth, 0, barWidth, this.height, colour);
  }

  private rect(x0: number, y0: number, w: number, h: number, [r, g, b]: readonly number[]): void {
    const { width, height, rgba } = this;
    for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y += 1) {
      for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x += 1) {
        const i = (y * width + x) * 4;
        rgba[i] = r as number;
        rgba[i + 1] = g as number;
        rgba[i + 2] = b as number;
      }
    }
  }

  private text(text: string, x0: number, y0: number, scale: number): void {
    for (const [n, char] of [...text].entries()) {
      const glyph = GLYPHS[char] ?? GLYPHS[' '];
      for (const [row, bits] of (glyph as readonly string[]).entries()) {
        for (let col = 0; col < 5; col += 1) {
          if (bits[col] !== '1') continue;
          this.rect(x0 + (n * 6 + col) * scale, y0 + row * scale, scale, scale, [255, 255, 255]);
        }
      }
    }
  }
}
