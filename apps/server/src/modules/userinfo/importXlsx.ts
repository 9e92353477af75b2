import { posix } from 'node:path';
import { UserImportKeys } from '@intercom/contract';
import { SaxesParser } from 'saxes';
import { AppError } from '../../http/AppError.js';
import type { ImportRecord, ReadLimits } from './importParse.js';
import { InflateBudget, checkZipExpansion, entryChunks, zipDirectory, type ZipEntry } from './importZip.js';

/**
 * Reads the first worksheet of an XLSX into records, with its own small SpreadsheetML reader
 * instead of exceljs' streaming one (issue 48): that one inflates entries without counting, caches
 * every shared string, builds each row as long as its highest column and copies a sheet that comes
 * before the shared strings to a temp file it removes only when the sheet is read to its end.
 *
 * Here the zip's entries are read where its directory says they are, each inflated as a stream and
 * counted against one budget for the file ({@link InflateBudget}); only the workbook, its
 * relationships, the shared strings and the first sheet are read, in that order, all in memory.
 * Shared strings are capped in number and bytes, cells past the template's last column are skipped
 * as they are met (a row never grows past it, whatever the sheet's dimension says), the text of all
 * cells together is capped at what a CSV of the size limit could hold, and reading stops at the row
 * cap. A formula cell is its formula text (`=...`), never its evaluation.
 */
export async function xlsxRecords(body: Buffer, limits: ReadLimits): Promise<ImportRecord[]> {
  const entries = zipDirectory(body);
  checkZipExpansion(entries, limits.maxInflatedBytes);
  const budget = new InflateBudget(limits.maxInflatedBytes);
  const rels = await relationships(body, entries, budget);
  const sheet = entries.get(await firstSheetPath(body, entries, budget, rels)) ?? firstSheetEntry(entries);
  if (!sheet) throw unreadable();
  const stringsPath = [...rels.values()].find((rel) => rel.type.endsWith('/sharedStrings'))?.target;
  const stringsEntry = entries.get(stringsPath ?? '') ?? entries.get('xl/sharedStrings.xml');
  const strings = stringsEntry ? await sharedStrings(body, stringsEntry, budget, limits) : [];
  return sheetRecords(body, sheet, budget, strings, limits);
}

const unreadable = () => AppError.field('file', UserImportKeys.fileUnreadable);
const bomb = () => AppError.field('file', UserImportKeys.zipBomb);

/**
 * Longest stretch of XML without a `<`: no text of a workbook comes near it (a cell holds at most
 * 32,767 characters), and a longer one would be held whole by the XML parser before any check.
 */
const MAX_RUN = 1024 * 1024;

/** Thrown by a handler to stop reading an entry: what was wanted has been read. */
class Done extends Error {}

interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  text(text: string): void;
  close(name: string): void;
}

/** Element and attribute names without their namespace prefix (`x:row` is `row`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

function attribute(attributes: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(attributes)) if (local(key) === name) return value;
  return undefined;
}

/** Streams one entry through a SAX parser; a handler may throw Done to stop early. */
async function readXml(body: Buffer, entry: ZipEntry, budget: InflateBudget, handlers: XmlHandlers): Promise<void> {
  const parser = new SaxesParser();
  parser.on('opentag', (node) => handlers.open(local(node.name), node.attributes as Record<string, string>));
  parser.on('text', (text) => handlers.text(text));
  parser.on('cdata', (text) => handlers.text(text));
  parser.on('closetag', (node) => handlers.close(local(node.name)));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let run = 0;
  try {
    for await (const chunk of entryChunks(body, entry, budget)) {
      const text = decoder.decode(chunk, { stream: true });
      // A chunk is at most 64 KB, so only a stretch across chunks can pass MAX_RUN.
      const first = text.indexOf('<');
      if (first < 0) run += text.length;
      else {
        if (run + first > MAX_RUN) throw unreadable();
        run = text.length - text.lastIndexOf('<') - 1;
      }
      if (run > MAX_RUN) throw unreadable();
      parser.write(text);
    }
    parser.write(decoder.decode()).close();
  } catch (error) {
    if (error instanceof Done) return;
    if (error instanceof AppError) throw error;
    throw unreadable();
  }
}

interface Relationship {
  type: string;
  target: string;
}

/** `xl/_rels/workbook.xml.rels`: relationship id → type and the entry it points at. */
async function relationships(body: Buffer, entries: Map<string, ZipEntry>, budget: InflateBudget) {
  const rels = new Map<string, Relationship>();
  const entry = entries.get('xl/_rels/workbook.xml.rels');
  if (!entry) return rels;
  await readXml(body, entry, budget, {
    open(name, attributes) {
      const id = attribute(attributes, 'Id');
      const target = attribute(attributes, 'Target');
      if (name !== 'Relationship' || !id || !target) return;
      const path = target.startsWith('/') ? target.slice(1) : posix.normalize(`xl/${target}`);
      rels.set(id, { type: attribute(attributes, 'Type') ?? '', target: path });
    },
    text() {},
    close() {},
  });
  return rels;
}

/** The entry of the workbook's first sheet (in the workbook's order), by its relationship. */
async function firstSheetPath(
  body: Buffer,
  entries: Map<string, ZipEntry>,
  budget: InflateBudget,
  rels: Map<string, Relationship>,
): Promise<string> {
  const entry = entries.get('xl/workbook.xml');
  if (!entry) return '';
  let path = '';
  await readXml(body, entry, budget, {
    open(name, attributes) {
      if (name !== 'sheet') return;
      path = rels.get(attribute(attributes, 'id') ?? '')?.target ?? '';
      throw new Done();
    },
    text() {},
    close() {},
  });
  return path;
}

/** Without a usable workbook: the sheet with the lowest number. */
function firstSheetEntry(entries: Map<string, ZipEntry>): ZipEntry | undefined {
  let first: { n: number; entry: ZipEntry } | undefined;
  for (const entry of entries.values()) {
    const match = /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(entry.name);
    const n = Number(match?.[1]);
    if (match && (!first || n < first.n)) first = { n, entry };
  }
  return first?.entry;
}

/**
 * The shared strings, each the text of its `<t>` elements (rich-text runs joined; phonetic hints,
 * `<rPh>`, left out). More than maxSharedStrings, or more than maxSharedStringBytes of text in all,
 * refuse the file.
 */
async function sharedStrings(
  body: Buffer,
  entry: ZipEntry,
  budget: InflateBudget,
  limits: ReadLimits,
): Promise<string[]> {
  const strings: string[] = [];
  let parts: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  let bytes = 0;
  await readXml(body, entry, budget, {
    open(name) {
      if (name === 'si') parts = [];
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && parts && phonetic === 0) inText = true;
    },
    text(text) {
      if (!inText || !parts) return;
      bytes += Buffer.byteLength(text);
      if (bytes > limits.maxSharedStringBytes) throw bomb();
      parts.push(text);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && parts) {
        if (strings.length >= limits.maxSharedStrings) throw bomb();
        strings.push(parts.join(''));
        parts = null;
      }
    },
  });
  return strings;
}

/**
 * The column number of a cell reference (`C7` is 3); 0 when it starts with no letter, and past any
 * real column when it has four letters or more (the last column a sheet can have is XFD, 16,384).
 */
export function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    if (i === 3) return Number.MAX_SAFE_INTEGER;
    column = column * 26 + code - 64;
  }
  return column;
}

interface Cell {
  column: number;
  type: string;
  formula: string | null;
  value: string | null;
}

/** A cell as text, as the CSV of the same sheet would have it. */
function cellText(cell: Cell, strings: string[]): string {
  if (cell.formula) return `=${cell.formula}`;
  const value = cell.value;
  if (value === null) return '';
  switch (cell.type) {
    case 's':
      return strings[Number.parseInt(value, 10)] ?? '';
    case 'b':
      return Number.parseInt(value, 10) !== 0 ? 'TRUE' : 'FALSE';
    case 'inlineStr':
    case 'str':
    case 'e':
    case 'd':
      return value;
    default: {
      // A number as JavaScript writes it: 13800000001 stays 13800000001.
      const number = Number.parseFloat(value);
      return Number.isNaN(number) ? value : String(number);
    }
  }
}

async function sheetRecords(
  body: Buffer,
  entry: ZipEntry,
  budget: InflateBudget,
  strings: string[],
  limits: ReadLimits,
): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  let inData = false;
  let row: { number: number; values: string[] } | null = null;
  let lastRow = 0;
  let lastColumn = 0;
  let cell: Cell | null = null;
  let capture: 'formula' | 'value' | null = null;
  let inInline = false;
  let phonetic = 0;
  let textLeft = limits.maxTextChars;
  const spend = (chars: number) => {
    textLeft -= chars;
    if (textLeft < 0) throw bomb();
  };
  await readXml(body, entry, budget, {
    open(name, attributes) {
      if (name === 'sheetData') inData = true;
      else if (!inData) return;
      else if (name === 'row') {
        if (records.length >= limits.maxRecords) throw AppError.field('file', UserImportKeys.tooManyRows);
        const number = Number.parseInt(attribute(attributes, 'r') ?? '', 10);
        lastRow = Number.isSafeInteger(number) && number > 0 ? number : lastRow + 1;
        lastColumn = 0;
        row = { number: lastRow, values: [] };
      } else if (name === 'c' && row) {
        const ref = attribute(attributes, 'r');
        const column = ref ? columnOf(ref) || lastColumn + 1 : lastColumn + 1;
        lastColumn = column;
        // A cell past the template's last column is skipped here: no row is ever longer than that.
        cell =
          column <= limits.maxColumns
            ? { column, type: attribute(attributes, 't') ?? 'n', formula: null, value: null }
            : null;
      } else if (!cell) return;
      else if (name === 'f') {
        cell.formula = '';
        capture = 'formula';
      } else if (name === 'v') {
        cell.value = '';
        capture = 'value';
      } else if (name === 'is') inInline = true;
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && inInline && phonetic === 0) {
        cell.value ??= '';
        capture = 'value';
      }
    },
    text(text) {
      if (!cell || !capture) return;
      spend(text.length);
      cell[capture] = (cell[capture] ?? '') + text;
    },
    close(name) {
      if (!inData) return;
      if (name === 'sheetData') throw new Done();
      if (name === 'f' || name === 'v' || name === 't') capture = null;
      else if (name === 'rPh') phonetic--;
      else if (name === 'is') inInline = false;
      else if (name === 'c' && cell && row) {
        const text = cellText(cell, strings);
        // Inline text was counted as it came; a shared string is counted each time a cell uses it.
        if (cell.type === 's' && !cell.formula) spend(text.length);
        row.values[cell.column - 1] = text;
        cell = null;
      } else if (name === 'row' && row) {
        records.push({ row: row.number, values: Array.from(row.values, (v) => v ?? '') });
        row = null;
      }
    },
  });
  return records;
}
