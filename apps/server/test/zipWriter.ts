import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

/**
 * Zips written by hand for the import tests and bench/importHostile.ts: each part deflated, and
 * the sizes the local header and the central directory tell free to lie (issue 48).
 */

/** One part of a zip: its deflated bytes, true size and CRC, and the size its headers claim. */
export interface ZipPart {
  name: string;
  compressed: Buffer;
  size: number;
  crc: number;
  declaredSize: number;
}

/** A part of these bytes, deflated whole; `declaredSize` makes the headers lie. */
export function deflated(name: string, data: Buffer | string, declaredSize?: number): ZipPart {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
  return {
    name,
    compressed: deflateRawSync(bytes, { level: 9 }),
    size: bytes.length,
    crc: crc32(bytes) >>> 0,
    declaredSize: declaredSize ?? bytes.length,
  };
}

/**
 * A part of `head`, then `unit` repeated `count` times, then `tail`, deflated as it is made:
 * gigabytes of XML become a few megabytes without ever being held.
 */
export async function repeated(
  name: string,
  parts: { head: string; unit: string; count: number; tail: string },
  declaredSize?: number,
): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  let size = 0;
  const write = async (piece: Buffer) => {
    crc = crc32(piece, crc);
    size += piece.length;
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  await write(Buffer.from(parts.head));
  // A megabyte of units at a time: deflate is slow on many small writes.
  const per = Math.max(1, Math.floor((1024 * 1024) / Math.max(1, Buffer.byteLength(parts.unit))));
  const block = Buffer.from(parts.unit.repeat(per));
  let left = Math.floor(parts.count);
  for (; left >= per; left -= per) await write(block);
  if (left > 0) await write(Buffer.from(parts.unit.repeat(left)));
  await write(Buffer.from(parts.tail));
  deflate.end();
  await ended;
  return { name, compressed: Buffer.concat(out), size, crc: crc >>> 0, declaredSize: declaredSize ?? size };
}

/**
 * The fields a local and a central header share, from "version needed" (2.0) on: method 8 (deflate),
 * CRC-32, both sizes, name length. The central header has "version made by" first, so they start at 6.
 */
function writeEntryFields(header: Buffer, at: number, part: ZipPart, nameLength: number): void {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(8, at + 4);
  header.writeUInt32LE(part.crc, at + 10);
  header.writeUInt32LE(part.compressed.length, at + 14);
  header.writeUInt32LE(part.declaredSize, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}

/** The zip of these parts, in this order. */
export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, part, name.length);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    writeEntryFields(central, 6, part, name.length);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.compressed);
    centrals.push(central, name);
    offset += local.length + name.length + part.compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The parts of an XLSX around its sheets: the workbook naming sheets 1..`sheets` in order (sheet1
 * first) and its relationships to them and to `xl/sharedStrings.xml`.
 */
export function workbookParts(sheets = 1): ZipPart[] {
  const ids = Array.from({ length: sheets }, (_, i) => i + 1);
  const workbook =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
    ids.map((i) => `<sheet name="Sheet ${i}" sheetId="${i}" r:id="rId${i}"/>`).join('') +
    '</sheets></workbook>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    ids
      .map((i) => `<Relationship Id="rId${i}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i}.xml"/>`)
      .join('') +
    `<Relationship Id="rIdS" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
  return [
    deflated('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types/>'),
    deflated('xl/workbook.xml', workbook),
    deflated('xl/_rels/workbook.xml.rels', rels),
  ];
}
