import {
  DeviceLimits,
  MessageKeys,
  SysLogActions,
  checkIccid,
  normaliseIccid,
  type IccidImportReport,
} from '@intercom/contract';
import { AppError } from '../../http/AppError.js';
import { inScope } from '../../tenancy/scope.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import { iccidsTaken } from './userRepository.js';

type Duplicate = IccidImportReport['duplicates'][number];
type Invalid = IccidImportReport['invalid'][number];

export interface ParsedIccidFile {
  lines: number;
  blank: number;
  /** Valid, first occurrences, in file order. */
  candidates: { line: number; ICCID: string }[];
  duplicates: Duplicate[];
  invalid: Invalid[];
}

const CHUNK = 500;

/**
 * Reads an ICCID file: UTF-8 (a BOM is dropped), one ICCID per line, LF, CRLF or CR. Lines are
 * trimmed; blank lines are counted and skipped; a line that repeats an earlier one is a duplicate.
 * A body that is not UTF-8 or has too many lines is refused whole (4000).
 */
export function parseIccidFile(body: Buffer): ParsedIccidFile {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw AppError.field('file', MessageKeys.fileEncoding);
  }
  const lines = text.split(/\r\n|\r|\n/);
  // A final line break ends the last line; it does not start an empty one.
  if (lines.length > 0 && lines.at(-1) === '') lines.pop();
  if (lines.length > DeviceLimits.importMaxLines) throw AppError.field('file', MessageKeys.fileTooManyLines);
  const parsed: ParsedIccidFile = { lines: lines.length, blank: 0, candidates: [], duplicates: [], invalid: [] };
  const firstLine = new Map<string, number>();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const value = raw.trim();
    if (value === '') {
      parsed.blank += 1;
      return;
    }
    const key = checkIccid(value);
    if (key) {
      parsed.invalid.push({ line, value: [...value].slice(0, 64).join(''), key });
      return;
    }
    const ICCID = normaliseIccid(value);
    const first = firstLine.get(ICCID);
    if (first !== undefined) {
      parsed.duplicates.push({ line, ICCID, reason: 'file', firstLine: first });
      return;
    }
    firstLine.set(ICCID, line);
    parsed.candidates.push({ line, ICCID });
  });
  return parsed;
}

/**
 * `POST /api/UserInfo/ImportICCID`: adds the file's new ICCIDs to the enterprise's inventory
 * (unmapped) in one transaction and reports accepted, duplicate and invalid lines.
 */
export async function importIccids(
  ctx: ServiceContext,
  input: { fileName: string; E_ID?: number | undefined },
  body: Buffer,
): Promise<IccidImportReport> {
  const E_ID = input.E_ID ?? ctx.scope.rootId;
  if (!inScope(ctx.scope, E_ID)) throw AppError.notFound();
  const parsed = parseIccidFile(body);
  const duplicates = [...parsed.duplicates];
  const fresh: { line: number; ICCID: string }[] = [];
  for (let i = 0; i < parsed.candidates.length; i += CHUNK) {
    const chunk = parsed.candidates.slice(i, i + CHUNK);
    const taken = await iccidsTaken(
      ctx.db,
      chunk.map((c) => c.ICCID),
    );
    for (const c of chunk) {
      if (taken.has(c.ICCID)) duplicates.push({ line: c.line, ICCID: c.ICCID, reason: 'exists' });
      else fresh.push(c);
    }
  }
  const now = ctx.clock.now();
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    const inserted = new Set<string>();
    for (let i = 0; i < fresh.length; i += CHUNK) {
      const rows = fresh.slice(i, i + CHUNK).map((c) => ({
        E_ID,
        DeviceCode: '',
        ICCID: c.ICCID,
        NickName: '',
        Priority: 0,
        OSID: null,
        UType: 0,
        Remark: '',
        UserID: null,
        CreatedAt: now,
      }));
      // Another import may have added some of them since the check: those are duplicates too.
      const result = await trx
        .insertInto('device')
        .values(rows)
        .onConflict((oc) => oc.column('ICCID').doNothing())
        .returning('ICCID')
        .execute();
      for (const r of result) inserted.add(r.ICCID);
    }
    for (const c of fresh) {
      if (!inserted.has(c.ICCID)) duplicates.push({ line: c.line, ICCID: c.ICCID, reason: 'exists' });
    }
    await logChange(trx, ctx, {
      E_ID,
      Action: SysLogActions.iccidImport,
      Target: input.fileName,
      Summary: {
        lines: parsed.lines,
        accepted: inserted.size,
        duplicates: duplicates.length,
        invalid: parsed.invalid.length,
        blank: parsed.blank,
      },
    });
    return inserted.size;
  });
  duplicates.sort((a, b) => a.line - b.line);
  return {
    fileName: input.fileName,
    lines: parsed.lines,
    blank: parsed.blank,
    accepted,
    duplicateCount: duplicates.length,
    invalidCount: parsed.invalid.length,
    duplicates: duplicates.slice(0, DeviceLimits.importReportMax),
    invalid: parsed.invalid.slice(0, DeviceLimits.importReportMax),
  };
}
