import zlib from 'node:zlib';
import type { RawDeflate } from '@intercom/contract';

/**
 * Raw DEFLATE by Node's zlib at level 1 for the packed snapshots: native, about 7 ms for a
 * 50,000-user online block where fflate (JavaScript) takes 25-50 ms on the event loop, for a tenth
 * more bytes (docs/benchmarks.md). The console inflates it with fflate as before.
 */
export const nativeDeflate: RawDeflate = (bytes) => zlib.deflateRawSync(bytes, { level: 1 });
