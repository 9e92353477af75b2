import { UserImportKeys, UserImportLimits } from '@intercom/contract';
import { AppError } from '../../http/AppError.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/**
 * Refuses an XLSX whose zip entries together would expand past UserImportLimits.maxUncompressedBytes,
 * from the sizes its central directory declares, before a byte is inflated (a 100 KB sheet of
 * repeated XML can expand to gigabytes). A zip without a readable directory, or with ZIP64 sizes
 * (an XLSX of 10 MB never needs them), is refused too. A lying directory is caught later by the
 * row cap of the streaming reader.
 */
export function checkZipExpansion(body: Buffer): void {
  const end = findEndOfDirectory(body);
  if (end < 0) throw AppError.field('file', UserImportKeys.fileUnreadable);
  const entries = body.readUInt16LE(end + 10);
  let offset = body.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (offset + 46 > body.length || body.readUInt32LE(offset) !== CENTRAL) {
      throw AppError.field('file', UserImportKeys.fileUnreadable);
    }
    const size = body.readUInt32LE(offset + 24);
    if (size === 0xffffffff) throw AppError.field('file', UserImportKeys.zipBomb);
    total += size;
    if (total > UserImportLimits.maxUncompressedBytes) throw AppError.field('file', UserImportKeys.zipBomb);
    offset += 46 + body.readUInt16LE(offset + 28) + body.readUInt16LE(offset + 30) + body.readUInt16LE(offset + 32);
  }
}

/** The end-of-central-directory record: within the last 64 KB + 22 bytes (its comment). */
function findEndOfDirectory(body: Buffer): number {
  const stop = Math.max(0, body.length - 22 - 0xffff);
  for (let i = body.length - 22; i >= stop; i--) {
    if (body.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}
