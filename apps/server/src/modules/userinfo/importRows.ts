import {
  MessageKeys,
  UserImportKeys,
  UserImportLimits,
  OrganLimits,
  checkPhone,
  userSaveSchema,
  type UserImportColumn,
} from '@intercom/contract';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ImportRow } from './importParse.js';
import {
  channelsByName,
  departmentPaths,
  iccidHolders,
  nameHolders,
  userTypesByKey,
  usersWithPhones,
  type KnownUser,
} from './importLookups.js';
import { USER_IMPORT_CODES } from './importMessages.js';

/** A valid row: what it sets (undefined: left as it is on a known user). */
export interface RowPlan {
  row: number;
  MobilePhone: string;
  known: KnownUser | undefined;
  UserName: string | undefined;
  ICCID: string | undefined;
  /** Department path; '' is no department. */
  department: string | undefined;
  UType: number | undefined;
  PriorityLevel: number | undefined;
  Remark: string | undefined;
  /** The Password cell, or undefined when empty. */
  Password: string | undefined;
  channels: number[];
}

export interface RowError {
  row: number;
  field: string;
  code: string;
}

export interface Validation {
  plans: RowPlan[];
  errors: RowError[];
  departments: Map<string, number>;
  /** Department paths to create (parents first). */
  newDepartments: string[];
  invalidRows: number;
}

/** A password that passes the form's rule, standing in for a generated one while validating. */
const PLACEHOLDER_PASSWORD = 'generated-0';

const FIELD_OF: Record<string, UserImportColumn> = { PriorityLevel: 'Priority' };

const KNOWN_CODES = new Set(USER_IMPORT_CODES);

/** Rows checked between two turns of the event loop: 20,000 rows in one go held it for a second. */
export const ROWS_PER_TURN = 500;

/** Lookups of one import, loaded once for all rows. */
interface Lookups {
  E_ID: number;
  createDepartments: boolean;
  known: Map<string, KnownUser>;
  names: Map<string, number>;
  iccids: Awaited<ReturnType<typeof iccidHolders>>;
  departments: Map<string, number>;
  channels: Map<string, number>;
  types: Map<string, number>;
  newDepartments: Set<string>;
  seen: { phone: Set<string>; name: Set<string>; iccid: Set<string> };
}

async function lookupsOf(db: Kysely<DB>, E_ID: number, rows: ImportRow[], createDepartments: boolean) {
  const values = (column: UserImportColumn) => [
    ...new Set(rows.map((r) => r.cells[column] ?? '').filter((v) => v !== '')),
  ];
  const [known, names, iccids, departments, channels, types] = await Promise.all([
    usersWithPhones(db, values('MobilePhone')),
    nameHolders(db, E_ID, values('UserName')),
    iccidHolders(
      db,
      values('ICCID').map((v) => v.toUpperCase()),
    ),
    departmentPaths(db, E_ID),
    channelsByName(db, E_ID),
    userTypesByKey(db, E_ID),
  ]);
  const seen = { phone: new Set<string>(), name: new Set<string>(), iccid: new Set<string>() };
  return {
    E_ID,
    createDepartments,
    known,
    names,
    iccids,
    departments,
    channels,
    types,
    newDepartments: new Set<string>(),
    seen,
  };
}

/**
 * Checks every row with the user form's validators (userSaveSchema) and the import's own rules:
 * phone and name and ICCID unique in the file and on the platform, department path and channel
 * names and user type of the importing enterprise, Priority 0-7. A known phone of another
 * enterprise "cannot be imported", without saying why. Returns the valid rows' plans and every
 * row's errors.
 */
export async function validateRows(
  db: Kysely<DB>,
  E_ID: number,
  rows: ImportRow[],
  createDepartments: boolean,
): Promise<Validation> {
  const lookups: Lookups = await lookupsOf(db, E_ID, rows, createDepartments);
  const plans: RowPlan[] = [];
  const errors: RowError[] = [];
  let invalidRows = 0;
  for (const [i, row] of rows.entries()) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
    const rowErrors: RowError[] = [];
    const plan = checkRow(lookups, row, (field, code) => rowErrors.push({ row: row.row, field, code }));
    if (rowErrors.length > 0) {
      invalidRows += 1;
      errors.push(...rowErrors);
    } else plans.push(plan);
  }
  return {
    plans,
    errors,
    departments: lookups.departments,
    newDepartments: [...lookups.newDepartments].sort((a, b) => a.split('/').length - b.split('/').length),
    invalidRows,
  };
}

type Report = (field: string, code: string) => void;

function checkRow(l: Lookups, row: ImportRow, report: Report): RowPlan {
  const cell = (column: UserImportColumn) => row.cells[column] ?? '';
  const MobilePhone = cell('MobilePhone');
  const known = checkPhoneCell(l, MobilePhone, report);
  const form = userSaveSchema.safeParse({
    UserID: known?.UserID ?? 0,
    MobilePhone,
    UserName: cell('UserName') || undefined,
    ICCID: cell('ICCID') || undefined,
    PriorityLevel: cell('Priority') || undefined,
    Password: cell('Password') || (known ? undefined : PLACEHOLDER_PASSWORD),
    Remark: cell('Remark') || undefined,
  });
  if (!form.success) {
    for (const issue of form.error.issues) {
      const field = String(issue.path[0] ?? 'file');
      if (field === 'MobilePhone') continue;
      report(FIELD_OF[field] ?? field, KNOWN_CODES.has(issue.message) ? issue.message : MessageKeys.invalid);
    }
  }
  const input = form.success ? form.data : undefined;
  const UserName = input?.UserName;
  if (UserName !== undefined) checkUnique(l, 'name', UserName, l.names.get(UserName), known, 'UserName', report);
  const ICCID = input?.ICCID || undefined;
  if (ICCID !== undefined) checkIccidHolder(l, ICCID, known, report);
  return {
    row: row.row,
    MobilePhone,
    known,
    UserName,
    ICCID,
    department: checkDepartment(l, cell('Department'), report),
    UType: checkUserType(l, cell('UserType'), report),
    PriorityLevel: input?.PriorityLevel,
    Remark: input?.Remark,
    Password: cell('Password') || undefined,
    channels: checkChannels(l, cell('Channels'), report),
  };
}

function checkPhoneCell(l: Lookups, phone: string, report: Report): KnownUser | undefined {
  if (phone === '') {
    report('MobilePhone', MessageKeys.required);
    return undefined;
  }
  const key = checkPhone(phone);
  if (key) {
    report('MobilePhone', key);
    return undefined;
  }
  if (l.seen.phone.has(phone)) report('MobilePhone', UserImportKeys.duplicateInFile);
  l.seen.phone.add(phone);
  const known = l.known.get(phone);
  if (known && known.E_ID !== l.E_ID) {
    // Not "already in use": that would tell which phones other enterprises have (issue 48).
    report('MobilePhone', UserImportKeys.cannotImport);
    return undefined;
  }
  return known;
}

function checkUnique(
  l: Lookups,
  kind: 'name' | 'iccid',
  value: string,
  holder: number | undefined,
  known: KnownUser | undefined,
  field: string,
  report: Report,
): void {
  if (l.seen[kind].has(value)) report(field, UserImportKeys.duplicateInFile);
  else if (holder !== undefined && holder !== known?.UserID) {
    report(field, kind === 'name' ? MessageKeys.nameExists : MessageKeys.iccidExists);
  }
  l.seen[kind].add(value);
}

/** The rule of assertIccidFree: no other user holds it; its inventory record is free and ours. */
function checkIccidHolder(l: Lookups, iccid: string, known: KnownUser | undefined, report: Report): void {
  const device = l.iccids.devices.get(iccid);
  if (device && (device.E_ID !== l.E_ID || (device.UserID !== null && device.UserID !== known?.UserID))) {
    report('ICCID', MessageKeys.iccidExists);
    return;
  }
  checkUnique(l, 'iccid', iccid, l.iccids.users.get(iccid), known, 'ICCID', report);
}

function checkDepartment(l: Lookups, text: string, report: Report): string | undefined {
  if (text === '') return undefined;
  const names = text.split(UserImportLimits.departmentSeparator).map((n) => n.trim());
  if (names.some((n) => n === '')) return void report('Department', MessageKeys.invalid);
  if (names.some((n) => [...n].length > OrganLimits.nameMax)) return void report('Department', MessageKeys.tooLong);
  const path = names.join(UserImportLimits.departmentSeparator);
  if (l.departments.has(path)) return path;
  if (!l.createDepartments) return void report('Department', UserImportKeys.departmentUnknown);
  for (let i = 1; i <= names.length; i++) {
    const prefix = names.slice(0, i).join(UserImportLimits.departmentSeparator);
    if (!l.departments.has(prefix)) l.newDepartments.add(prefix);
  }
  return path;
}

function checkUserType(l: Lookups, text: string, report: Report): number | undefined {
  if (text === '') return undefined;
  const id = l.types.get(text);
  if (id === undefined) report('UserType', UserImportKeys.userTypeUnknown);
  return id;
}

function checkChannels(l: Lookups, text: string, report: Report): number[] {
  const ids = new Set<number>();
  for (const name of text.split(UserImportLimits.channelSeparator).map((n) => n.trim())) {
    if (name === '') continue;
    const id = l.channels.get(name);
    if (id === undefined) {
      report('Channels', UserImportKeys.channelUnknown);
      return [];
    }
    ids.add(id);
  }
  return [...ids];
}
