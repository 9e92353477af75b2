import type { RawData } from 'ws';

/** A text message of a `ws` socket as a string (its data arrives as a Buffer, or chunks of one). */
export function wsText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
