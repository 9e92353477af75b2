/*
 * Names and URLs of stored images, apart from media.ts: the login page shows the remembered
 * subject images, and any contract module holding a zod schema would bring zod into its
 * JavaScript (about 27 KB gzip of its 250 KB budget). Keep this file free of zod.
 */

/** Stored image names: `<kind>-<32 hex>.<ext>`; nothing else is ever served. */
export const STORED_IMAGE_NAME = /^(bg|logo)-[0-9a-f]{32}\.(png|jpg|webp)$/;

/** The public path of a stored image. */
export function imageUrl(name: string): string {
  return `/api/Media/Image/${name}`;
}
