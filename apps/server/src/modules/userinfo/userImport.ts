import { randomInt } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  USER_IMPORT_PREVIEW_ROWS,
  UserImportKeys,
  UserImportLogAction,
  type UserImportLang,
  type UserImportQuery,
  type UserImportReport,
} from '@intercom/contract';
import type { Updateable } from 'kysely';
import { bulkHashing } from '../../auth/hashSlots.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { logChange, type ServiceContext } from '../../core/serviceContext.js';
import type { UserTable } from '../../db/schema.js';
import { AppError } from '../../http/AppError.js';
import { assertLicences } from '../enterprise/index.js';
import { membershipsOf } from './importLookups.js';
import { importMessage } from './importMessages.js';
import { noProgress, type ImportProgressReport } from './importProgress.js';
import type { ImportRow } from './importParse.js';
import { ROWS_PER_TURN, validateRows, type RowError, type RowPlan, type Validation } from './importRows.js';
import { createDepartments, writeRows, type WriteRow } from './importWrite.js';

interface Planned {
  plan: RowPlan;
  kind: 'create' | 'update' | 'unchanged';
  values: Updateable<UserTable>;
  channels: number[];
  passwordChanged: boolean;
}

/** Stand-in department id of a path a dry run would create (never equal to a stored one). */
const NEW_DEPARTMENT = -1;

/** Reads the uploaded file into rows (importReader.ts: in a worker thread with its own limits). */
export type ReadImportFile = (body: Buffer) => Promise<ImportRow[]>;

/**
 * `POST /api/UserInfo/Import`: users of the working enterprise from a CSV or XLSX file, matched by
 * MobilePhone (known: updated; a re-run changes nothing). Nothing is written on a dry run, when the
 * new users exceed the licences, or (without skipInvalid) when any row is invalid.
 */
export async function importUsers(
  ctx: ServiceContext,
  query: UserImportQuery,
  lang: UserImportLang,
  file: { name: string; body: Buffer },
  readFile: ReadImportFile,
  report: ImportProgressReport = noProgress,
): Promise<UserImportReport> {
  report('check', 0, 0);
  try {
    const answer = await runImport(ctx, query, lang, file, readFile, report);
    report('done', answer.total, answer.total);
    return answer;
  } catch (error) {
    report('failed', 0, 0);
    throw error;
  }
}

async function runImport(
  ctx: ServiceContext,
  query: UserImportQuery,
  lang: UserImportLang,
  file: { name: string; body: Buffer },
  readFile: ReadImportFile,
  report: ImportProgressReport,
): Promise<UserImportReport> {
  const E_ID = ctx.scope.rootId;
  const rows = await readFile(file.body);
  const checked = await validateRows(ctx.db, E_ID, rows, query.createDepartments);
  const errors: RowError[] = [...checked.errors];
  const created = checked.plans.filter((p) => !p.known).length;
  const quotaOk = await licencesFit(ctx, E_ID, created);
  if (!quotaOk) errors.unshift({ row: 0, field: 'file', code: UserImportKeys.quota });
  const written = !query.dryRun && quotaOk && (query.skipInvalid || checked.errors.length === 0);
  // Only an import that writes compares passwords: one that does not (a dry run, or one stopped by
  // an invalid row or the licences) would tell a right guess from a wrong one without changing or
  // logging anything (issue 48).
  const planned = await planRows(ctx, checked, report, written);
  const counts = {
    total: rows.length,
    valid: checked.plans.length,
    created,
    updated: planned.filter((p) => p.kind === 'update').length,
    unchanged: planned.filter((p) => p.kind === 'unchanged').length,
    passwordsSet: planned.filter((p) => p.passwordChanged).length,
    skipped: checked.invalidRows,
    departmentsCreated: checked.newDepartments.length,
  };
  let PasswordsCsv: string | null = null;
  if (written) {
    PasswordsCsv = await write(ctx, E_ID, checked, planned, report);
    await logChange(ctx.db, ctx, { E_ID, Action: UserImportLogAction, Target: file.name, Summary: counts });
  }
  errors.sort((a, b) => a.row - b.row);
  return {
    ...counts,
    written,
    errors: errors.map((e) => ({ ...e, message: importMessage(lang, e.code) })),
    PasswordsCsv,
    ...(query.dryRun ? { preview: previewOf(rows) } : {}),
  };
}

/** The first rows of the file for the check's preview; a password is never sent back. */
function previewOf(rows: ImportRow[]) {
  return rows.slice(0, USER_IMPORT_PREVIEW_ROWS).map(({ row, cells }) => ({
    row,
    values: cells.Password ? { ...cells, Password: '********' } : { ...cells },
  }));
}

async function licencesFit(ctx: ServiceContext, E_ID: number, needed: number): Promise<boolean> {
  try {
    await assertLicences(ctx.db, E_ID, needed);
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

/**
 * What each valid row does to its user: create, update (the changed fields) or nothing. A Password
 * cell of a known user is compared with its hash only when `comparePasswords` (the import writes);
 * otherwise it counts as a change: "password will be set".
 */
async function planRows(
  ctx: ServiceContext,
  checked: Validation,
  report: ImportProgressReport,
  comparePasswords: boolean,
): Promise<Planned[]> {
  const knownIds = checked.plans.flatMap((p) => (p.known ? [p.known.UserID] : []));
  const memberships = await membershipsOf(ctx.db, knownIds);
  const verified = new Map<string, Promise<boolean>>();
  // Each distinct hash and password once, within the hashing budget every import shares.
  const samePassword = (hash: string, password: string) => {
    if (!comparePasswords) return Promise.resolve(false);
    const key = `${hash}\u0000${password}`;
    let result = verified.get(key);
    if (!result) {
      result = bulkHashing.run(() => verifyPassword(password, hash));
      verified.set(key, result);
    }
    return result;
  };
  const planned: Planned[] = [];
  const total = checked.plans.length;
  for (const plan of checked.plans) {
    // On an import that writes, known users' passwords are compared by scrypt: the slow part of a re-import.
    report('check', planned.length, total);
    if (planned.length > 0 && planned.length % ROWS_PER_TURN === 0) await nextTurn();
    const department = plan.department === undefined ? undefined : departmentId(checked, plan.department);
    const known = plan.known;
    if (!known) {
      planned.push({ plan, kind: 'create', values: {}, channels: plan.channels, passwordChanged: false });
      continue;
    }
    const values: Updateable<UserTable> = {};
    const set = <K extends keyof KnownFields>(field: K, value: KnownFields[K] | undefined) => {
      if (value !== undefined && value !== known[field]) values[field] = value as never;
    };
    set('UserName', plan.UserName);
    set('OS_ID', department);
    set('UType', plan.UType);
    set('PriorityLevel', plan.PriorityLevel);
    set('Remark', plan.Remark);
    const passwordChanged = plan.Password !== undefined && !(await samePassword(known.PasswordHash, plan.Password));
    const iccidChanged = plan.ICCID !== undefined && plan.ICCID !== known.ICCID;
    const have = memberships.get(known.UserID) ?? new Set<number>();
    const channels = plan.channels.filter((c) => !have.has(c));
    const changed = Object.keys(values).length > 0 || passwordChanged || iccidChanged || channels.length > 0;
    planned.push({ plan, kind: changed ? 'update' : 'unchanged', values, channels, passwordChanged });
  }
  report('check', total, total);
  return planned;
}

type KnownFields = Pick<UserTable, 'UserName' | 'UType' | 'PriorityLevel' | 'Remark'> & { OS_ID: number | null };

function departmentId(checked: Validation, path: string): number | null {
  if (path === '') return null;
  return checked.departments.get(path) ?? NEW_DEPARTMENT;
}

/** Creates departments, hashes passwords and writes the rows; returns the generated passwords as CSV. */
async function write(
  ctx: ServiceContext,
  E_ID: number,
  checked: Validation,
  planned: Planned[],
  report: ImportProgressReport,
) {
  const departments = await createDepartments(ctx.db, E_ID, checked.newDepartments, checked.departments);
  const osId = (path: string | undefined) => (path ? (departments.get(path) ?? null) : null);
  const active = planned.filter((p) => p.kind !== 'unchanged');
  const generated = new Map<string, string>();
  for (const p of active) {
    if (p.kind === 'create' && p.plan.Password === undefined) generated.set(p.plan.MobilePhone, newPassword());
  }
  const given = [...new Set(active.flatMap((p) => (p.plan.Password ? [p.plan.Password] : [])))];
  const toHash = given.length + generated.size;
  if (toHash > 0) report('hash', 0, toHash);
  const hashes = await hashEach(ctx, given, (done) => report('hash', done, toHash));
  const generatedHashes = await hashEach(ctx, [...generated.values()], (done) =>
    report('hash', given.length + done, toHash),
  );
  const rows: WriteRow[] = active.map((p) => {
    const password = p.plan.Password;
    if (p.kind === 'create') {
      const hash = password ? hashes.get(password) : generatedHashes.get(generated.get(p.plan.MobilePhone) ?? '');
      return {
        kind: 'create',
        values: {
          OS_ID: osId(p.plan.department),
          UserName: p.plan.UserName as string,
          MobilePhone: p.plan.MobilePhone,
          UType: p.plan.UType ?? 0,
          PriorityLevel: p.plan.PriorityLevel ?? 0,
          Remark: p.plan.Remark ?? '',
          PasswordHash: hash as string,
        },
        ICCID: p.plan.ICCID,
        channels: p.channels,
      };
    }
    const known = p.plan.known as NonNullable<RowPlan['known']>;
    const values = { ...p.values };
    if (values.OS_ID === NEW_DEPARTMENT) values.OS_ID = osId(p.plan.department);
    if (p.passwordChanged && password) values.PasswordHash = hashes.get(password);
    const ICCID = p.plan.ICCID !== known.ICCID ? p.plan.ICCID : undefined;
    return {
      kind: 'update',
      known,
      values,
      ICCID,
      channels: p.channels,
      priority: p.plan.PriorityLevel ?? known.PriorityLevel,
    };
  });
  await writeRows(ctx, E_ID, rows, (done) => report('write', done, rows.length));
  for (const p of active) {
    if (p.passwordChanged && p.plan.known) ctx.events.endSessions(p.plan.known, 'password');
  }
  return passwordsCsv(planned, generated);
}

/**
 * One hash per distinct password (a shared initial password costs one scrypt run), at the full
 * production cost (docs/decisions.md: generated passwords are not hashed cheaper). The runs share
 * the process's bulk hashing budget with every other import (auth/hashSlots.ts), which leaves
 * libuv's threads to logins; each slot takes the next password as soon as its run ends.
 */
async function hashEach(
  ctx: ServiceContext,
  passwords: string[],
  onHashed: (done: number) => void,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  let next = 0;
  const slot = async () => {
    while (next < passwords.length) {
      const password = passwords[next++] as string;
      hashes.set(password, await bulkHashing.run(() => hashPassword(password, ctx.passwordLogN)));
      onHashed(hashes.size);
    }
  };
  await Promise.all(Array.from({ length: Math.min(bulkHashing.size, passwords.length) }, slot));
  return hashes;
}

const PASSWORD_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A 10-character password of letters and digits (no look-alikes), from the CSPRNG. */
function newPassword(): string {
  return Array.from({ length: 10 }, () => PASSWORD_CHARS[randomInt(PASSWORD_CHARS.length)]).join('');
}

function csvText(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function passwordsCsv(planned: Planned[], generated: Map<string, string>): string | null {
  if (generated.size === 0) return null;
  const lines = ['MobilePhone,UserName,Password'];
  for (const p of planned) {
    const password = generated.get(p.plan.MobilePhone);
    if (password) lines.push([p.plan.MobilePhone, p.plan.UserName ?? '', password].map(csvText).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
