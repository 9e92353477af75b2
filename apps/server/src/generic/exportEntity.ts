import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Scope } from '../tenancy/scope.js';
import type { EntityDefinition } from './EntityDefinition.js';
import { orderOf, scopedQuery } from './queryEntity.js';

const CHUNK = 1000;

/** Reads the whole filtered set in chunks, so an export never holds it all in memory. */
async function* rowsOf(
  db: Kysely<DB>,
  def: EntityDefinition,
  scope: Scope,
  jsonCondition: string,
  orderField: string,
  desc: boolean,
) {
  const order = orderOf(def, orderField, desc);
  const columns = def.exportColumns ?? Object.keys(def.fields);
  const key = Object.keys(def.fields)[0] ?? order.field;
  if (order.field === key) {
    // Ordered by the id (the first field, unique): continue after the last id instead of an
    // OFFSET, so every chunk costs the same however deep the export is.
    const selected = columns.includes(key) ? columns : [...columns, key];
    let after: unknown;
    for (;;) {
      let query = scopedQuery(db, def, scope, jsonCondition).select(selected);
      if (after !== undefined) query = query.where(key, order.desc ? '<' : '>', after);
      const rows = (await query
        .orderBy(key, order.desc ? 'desc' : 'asc')
        .limit(CHUNK)
        .execute()) as Record<string, unknown>[];
      for (const row of rows) yield row;
      if (rows.length < CHUNK) return;
      after = rows.at(-1)?.[key];
    }
  }
  for (let offset = 0; ; offset += CHUNK) {
    const rows = (await scopedQuery(db, def, scope, jsonCondition)
      .select(columns)
      .orderBy(order.field, order.desc ? 'desc' : 'asc')
      .orderBy(key, order.desc ? 'desc' : 'asc')
      .limit(CHUNK)
      .offset(offset)
      .execute()) as Record<string, unknown>[];
    for (const row of rows) yield row;
    if (rows.length < CHUNK) return;
  }
}

/** A column's value as text; the exported columns hold strings, numbers and booleans. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

function csvCell(value: unknown): string {
  let text = valueText(value);
  // Cells starting with a formula character are neutralised so a spreadsheet never runs them.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface ExportRequest {
  jsonCondition: string;
  orderField: string;
  desc: boolean;
  format: 'csv' | 'xlsx';
  /** Minutes east of UTC the reader's times are written in. */
  utcOffset: number;
}

/** An epoch-ms time as the reader's wall clock, still a UTC Date (what a spreadsheet cell shows). */
function wallClock(value: unknown, utcOffset: number): Date | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return new Date(ms + utcOffset * 60_000);
}

const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** "2026-11-22 14:05:09" in the reader's time. */
function timeText(value: unknown, utcOffset: number): string {
  const date = wallClock(value, utcOffset);
  return date ? date.toISOString().slice(0, 19).replace('T', ' ') : '';
}

/** Validates the request up front (so errors are an envelope, not a broken file), then streams. */
export function exportEntity(db: Kysely<DB>, def: EntityDefinition, scope: Scope, req: ExportRequest): Readable {
  scopedQuery(db, def, scope, req.jsonCondition);
  orderOf(def, req.orderField, req.desc);
  const columns = def.exportColumns ?? Object.keys(def.fields);
  const times = new Set(columns.filter((c) => def.fields[c] === 'time'));
  const rows = rowsOf(db, def, scope, req.jsonCondition, req.orderField, req.desc);
  if (req.format === 'csv') {
    const cell = (row: Record<string, unknown>, c: string) =>
      csvCell(times.has(c) ? timeText(row[c], req.utcOffset) : row[c]);
    return Readable.from(
      (async function* () {
        yield `\uFEFF${columns.map(csvCell).join(',')}\r\n`;
        for await (const row of rows) yield `${columns.map((c) => cell(row, c)).join(',')}\r\n`;
      })(),
    );
  }
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(def.name);
  sheet.columns = columns.map((c) => ({ header: c, key: c, width: times.has(c) ? 20 : 18 }));
  void (async () => {
    try {
      for await (const row of rows) {
        for (const c of times) row[c] = wallClock(row[c], req.utcOffset);
        const added = sheet.addRow(row);
        for (const c of times) added.getCell(c).numFmt = TIME_FORMAT;
        added.commit();
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}
