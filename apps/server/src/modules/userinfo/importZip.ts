import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { UserImportKeys } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Compressed bytes fed to the inflater at a time, and the most it hands back at once. */
const CHUNK = 64 * 1024;

const unreadable = () => AppError.field('file', UserImportKeys.fileUnreadable);
const bomb = () => AppError.field('file', UserImportKeys.zipBomb);

/** One file of a zip, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** What the directory says it inflates to: used only to refuse an honest bomb early. */
  declaredSize: number;
  localOffset: number;
}

/**
 * The entries of a zip by name, from its central directory (the first of a repeated name). A zip
 * without a readable directory, encrypted, or with ZIP64 sizes (an XLSX of 10 MB never needs them)
 * is refused. The directory only says where an entry is: what it inflates to is counted while it
 * inflates ({@link entryChunks}), since a directory can lie.
 */
export function zipDirectory(body: Buffer): Map<string, ZipEntry> {
  const end = findEndOfDirectory(body);
  if (end < 0) throw unreadable();
  const count = body.readUInt16LE(end + 10);
  let offset = body.readUInt32LE(end + 16);
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > body.length || body.readUInt32LE(offset) !== CENTRAL) throw unreadable();
    const flags = body.readUInt16LE(offset + 8);
    const compressedSize = body.readUInt32LE(offset + 20);
    const declaredSize = body.readUInt32LE(offset + 24);
    const localOffset = body.readUInt32LE(offset + 42);
    if ([compressedSize, declaredSize, localOffset].includes(0xffffffff)) throw bomb();
    if (flags & 1) throw unreadable();
    const nameLength = body.readUInt16LE(offset + 28);
    const name = body.toString('utf8', offset + 46, Math.min(body.length, offset + 46 + nameLength));
    if (!entries.has(name)) {
      entries.set(name, { name, method: body.readUInt16LE(offset + 10), compressedSize, declaredSize, localOffset });
    }
    offset += 46 + nameLength + body.readUInt16LE(offset + 30) + body.readUInt16LE(offset + 32);
  }
  return entries;
}

/**
 * Refuses a zip whose directory itself says its entries expand past `budget` bytes, before a byte
 * is inflated (a 100 KB sheet of repeated XML can expand to gigabytes). A directory that lies is
 * caught by the budget while inflating.
 */
export function checkZipExpansion(entries: Map<string, ZipEntry>, budget: number): void {
  let total = 0;
  for (const entry of entries.values()) {
    total += entry.declaredSize;
    if (total > budget) throw bomb();
  }
}

/** Bytes the entries read from one file may still inflate to, all together. */
export class InflateBudget {
  constructor(private left: number) {}

  take(bytes: number): void {
    this.left -= bytes;
    if (this.left < 0) throw bomb();
  }
}

/**
 * The inflated bytes of one entry, a chunk at a time as the consumer asks for them, each counted
 * against `budget` before it is handed on: an entry that inflates past the budget is refused
 * (zip_bomb) after at most one chunk more than the budget, whatever its directory said. Stopping
 * early (a `break`, a throw) ends the inflater; nothing is written anywhere.
 */
export async function* entryChunks(body: Buffer, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Buffer> {
  const at = entry.localOffset;
  if (at + 30 > body.length || body.readUInt32LE(at) !== LOCAL) throw unreadable();
  const start = at + 30 + body.readUInt16LE(at + 26) + body.readUInt16LE(at + 28);
  const compressed = body.subarray(start, Math.min(body.length, start + entry.compressedSize));
  if (entry.method === 0) {
    for (let i = 0; i < compressed.length; i += CHUNK) {
      const chunk = compressed.subarray(i, i + CHUNK);
      budget.take(chunk.length);
      yield chunk;
    }
    return;
  }
  if (entry.method !== 8) throw unreadable();
  const source = Readable.from(pieces(compressed), { objectMode: false });
  const inflater = createInflateRaw({ chunkSize: CHUNK });
  source.on('error', (error) => inflater.destroy(error));
  source.pipe(inflater);
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      budget.take(chunk.length);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable();
  } finally {
    source.destroy();
    inflater.destroy();
  }
}

function* pieces(bytes: Buffer): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
}

/** The end-of-central-directory record: within the last 64 KB + 22 bytes (its comment). */
function findEndOfDirectory(body: Buffer): number {
  const stop = Math.max(0, body.length - 22 - 0xffff);
  for (let i = body.length - 22; i >= stop; i--) {
    if (body.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}
