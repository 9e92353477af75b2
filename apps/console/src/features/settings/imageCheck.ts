import { ImageKinds, MediaLimits, MessageKeys, type ImageFormat, type ImageKind } from '@intercom/contract';
import type { MessageParams } from '../../i18n/translateMessage';

/** A failed check: the same message key (and params) the server answers with. */
export interface ImageProblem {
  key: string;
  params?: MessageParams;
}

/** The format of an image by its first bytes (as the server decides it), never by its name. */
export function sniffImageFormat(head: Uint8Array): ImageFormat | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= 8 && png.every((byte, i) => head[i] === byte)) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export interface ImageFacts {
  format: ImageFormat | undefined;
  /** Bytes. */
  size: number;
  /** Undefined when the browser could not decode the image. */
  width?: number | undefined;
  height?: number | undefined;
}

/** What is wrong with an image for a subject slot, in the order the server checks it; null if fine. */
export function imageProblem(facts: ImageFacts, kind: ImageKind): ImageProblem | null {
  if (facts.size === 0 || !facts.format) return { key: MessageKeys.mediaBadFormat };
  if (facts.size > MediaLimits.imageMaxBytes) {
    return { key: MessageKeys.mediaTooLarge, params: { maxKB: MediaLimits.imageMaxBytes / 1024 } };
  }
  if (facts.width === undefined || facts.height === undefined) return { key: MessageKeys.mediaBadFormat };
  const expected = ImageKinds[kind];
  if (facts.width !== expected.width || facts.height !== expected.height) {
    return {
      key: MessageKeys.mediaWrongSize,
      params: {
        width: facts.width,
        height: facts.height,
        expectedWidth: expected.width,
        expectedHeight: expected.height,
      },
    };
  }
  return null;
}

async function decodedSize(file: Blob): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return undefined;
  }
}

/** Checks a chosen file before it is sent (the server checks again); null when it may go. */
export async function checkImageFile(file: File, kind: ImageKind): Promise<ImageProblem | null> {
  const format = sniffImageFormat(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  const early = imageProblem({ format, size: file.size, width: 0, height: 0 }, kind);
  // Format and size first: no need to decode a file that cannot go anyway.
  if (early && early.key !== MessageKeys.mediaWrongSize) return early;
  return imageProblem({ format, size: file.size, ...(await decodedSize(file)) }, kind);
}
