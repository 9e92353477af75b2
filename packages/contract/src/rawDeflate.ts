import { deflateSync } from 'fflate';

/**
 * Packs bytes as raw DEFLATE (RFC 1951) for the packed snapshots (GPS and online blocks). Any
 * conforming implementation will do: the readers inflate with fflate whatever wrote the stream.
 */
export type RawDeflate = (bytes: Uint8Array) => Uint8Array;

/**
 * fflate at level 1, in JavaScript, anywhere. The server passes Node's zlib instead (native, about
 * 4 times quicker on a 50,000-user snapshot: apps/server/src/hub/nativeDeflate.ts).
 */
export const fflateDeflate: RawDeflate = (bytes) => deflateSync(bytes, { level: 1 });
