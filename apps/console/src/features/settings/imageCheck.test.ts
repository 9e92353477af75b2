import { MessageKeys } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { imageProblem, sniffImageFormat } from './imageCheck';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('sniffImageFormat', () => {
  it('tells PNG, JPEG and WebP by their first bytes', () => {
    expect(sniffImageFormat(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe('png');
    expect(sniffImageFormat(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffImageFormat(bytes('RIFF', 0, 0, 0, 0, 'WEBP', 'VP8 '))).toBe('webp');
  });

  it('refuses anything else, whatever its name would say', () => {
    expect(sniffImageFormat(bytes('<svg xmlns="http'))).toBeUndefined();
    expect(sniffImageFormat(bytes('GIF89a'))).toBeUndefined();
    expect(sniffImageFormat(bytes(0x89, 'PN'))).toBeUndefined();
    expect(sniffImageFormat(new Uint8Array())).toBeUndefined();
  });
});

describe('imageProblem', () => {
  it('accepts exactly 304x31 for the logo and 592x77 for the background', () => {
    expect(imageProblem({ format: 'png', size: 900, width: 304, height: 31 }, 'logo')).toBeNull();
    expect(imageProblem({ format: 'webp', size: 900, width: 592, height: 77 }, 'bg')).toBeNull();
  });

  it('names the size it found and the one it needs', () => {
    expect(imageProblem({ format: 'png', size: 900, width: 592, height: 77 }, 'logo')).toEqual({
      key: MessageKeys.mediaWrongSize,
      params: { width: 592, height: 77, expectedWidth: 304, expectedHeight: 31 },
    });
  });

  it('checks format, then the 512 KB limit, then decoding', () => {
    expect(imageProblem({ format: undefined, size: 900 }, 'logo')?.key).toBe(MessageKeys.mediaBadFormat);
    expect(imageProblem({ format: 'png', size: 0 }, 'logo')?.key).toBe(MessageKeys.mediaBadFormat);
    expect(imageProblem({ format: 'png', size: 512 * 1024 + 1, width: 304, height: 31 }, 'logo')).toEqual({
      key: MessageKeys.mediaTooLarge,
      params: { maxKB: 512 },
    });
    expect(imageProblem({ format: 'jpeg', size: 900 }, 'bg')?.key).toBe(MessageKeys.mediaBadFormat);
  });
});
