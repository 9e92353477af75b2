import { z } from 'zod';
import {
  formBool,
  formIdOrZero,
  formInt,
  formJsonArray,
  formText,
  idList,
  optionalFormDate,
  optionalFormInt,
  optionalFormText,
} from './formFields.js';
import { Limits } from './limits.js';
import { MessageKeys } from './messages.js';

/** Limits of terminal users beyond SPEC.md section 9 (docs/api.md, "Users"). */
export const UserLimits = {
  nameMax: 32,
  phoneMin: 3,
  phoneMax: 20,
  priorityMin: 0,
  priorityMax: 7,
  remarkMax: 256,
  gpsConfigMax: 512,
  gpsIntervalMax: 86_400,
  /** Users one BChangeUser call may change. */
  batchChangeMax: 1000,
  /** Digits of a batch start number. */
  startMaxDigits: 18,
} as const;

/**
 * Capabilities of a terminal user, one bit each (`Caps`). `UCapsSwitch` sets the whole mask; the
 * console shows one switch per bit and sends the mask with that bit flipped.
 */
export const UserCaps = {
  /** May start and receive video. */
  video: 1,
  /** May place one-to-one calls. */
  privateCall: 2,
  /** Reports its position (GPS). */
  gps: 4,
  /** Its talk is recorded. */
  record: 8,
  /** May talk to every channel at once. */
  broadcast: 16,
  /** Has the SOS alarm button. */
  sos: 32,
} as const;
export type UserCapName = keyof typeof UserCaps;
export const USER_CAP_NAMES = Object.keys(UserCaps) as UserCapName[];
export const USER_CAPS_MASK = Object.values(UserCaps).reduce((mask, bit) => mask | bit, 0);
/** Capabilities of a new user and of a recovered one. */
export const USER_CAPS_DEFAULT = UserCaps.privateCall | UserCaps.gps;

export function hasCap(caps: number, cap: UserCapName): boolean {
  return (caps & UserCaps[cap]) !== 0;
}

/** ICCIDs are compared and stored trimmed and upper-case. */
export function normaliseIccid(value: string): string {
  return value.trim().toUpperCase();
}

/** SPEC.md section 5: 19 or 20 characters (China Mobile 20, others 19) of digits and letters. */
export function checkIccid(value: string): string | null {
  const iccid = normaliseIccid(value);
  if (iccid.length < Limits.iccidMinLength || iccid.length > Limits.iccidMaxLength) return MessageKeys.iccidLength;
  if (!/^[0-9A-Z]+$/.test(iccid)) return MessageKeys.iccidInvalid;
  return null;
}

/** MobilePhone is the terminal's account: 3-20 digits, unique on the platform. */
export function checkPhone(value: string): string | null {
  const pattern = new RegExp(`^\\d{${UserLimits.phoneMin},${UserLimits.phoneMax}}$`);
  return pattern.test(value.trim()) ? null : MessageKeys.phoneInvalid;
}

/** Batch name prefix: 2-10 characters of Chinese, digits, letters or underscore. */
export function checkUserPrefix(value: string): string | null {
  const pattern = new RegExp(`^[\\p{Script=Han}A-Za-z0-9_]{${Limits.userPrefixMin},${Limits.userPrefixMax}}$`, 'u');
  return pattern.test(value) ? null : MessageKeys.prefixInvalid;
}

/** Terminal password: 6-16 characters of digits, letters or special characters (printable ASCII, no space). */
export function checkTerminalPassword(value: string): string | null {
  const pattern = new RegExp(`^[\\x21-\\x7E]{${Limits.passwordMin},${Limits.passwordMax}}$`);
  return pattern.test(value) ? null : MessageKeys.terminalPasswordInvalid;
}

/**
 * GPS parameter of a user: empty (follow the enterprise's current location profile) or a JSON
 * object; `interval` (seconds, 1-86400) and `enabled` (boolean) are checked when present.
 */
export function checkGpsConfig(value: string): string | null {
  if (value === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return MessageKeys.gpsInvalid;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return MessageKeys.gpsInvalid;
  const { interval, enabled } = parsed as { interval?: unknown; enabled?: unknown };
  if (
    interval !== undefined &&
    !(
      typeof interval === 'number' &&
      Number.isInteger(interval) &&
      interval >= 1 &&
      interval <= UserLimits.gpsIntervalMax
    )
  ) {
    return MessageKeys.gpsInvalid;
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') return MessageKeys.gpsInvalid;
  return null;
}

/** The accounts a batch creates: start, start+1, ... keeping the start's width (leading zeros). */
export function batchNumbers(start: string, count: number): string[] {
  const first = BigInt(start);
  return Array.from({ length: count }, (_, i) => (first + BigInt(i)).toString().padStart(start.length, '0'));
}

const check = (fn: (v: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
  const key = fn(value);
  if (key) ctx.addIssue({ code: 'custom', message: key });
};

export const phoneField = () => formText(UserLimits.phoneMax, 1).superRefine(check(checkPhone));
/** ICCID of a user form: '' means "no SIM"; anything else must be a valid ICCID. */
export const userIccidField = () =>
  formText(64)
    .transform(normaliseIccid)
    .superRefine((v, ctx) => (v === '' ? undefined : check(checkIccid)(v, ctx)));
export const iccidField = () => formText(64, 1).transform(normaliseIccid).superRefine(check(checkIccid));
export const terminalPasswordField = () =>
  z.string({ error: MessageKeys.required }).superRefine(check(checkTerminalPassword));
const gpsField = () => formText(UserLimits.gpsConfigMax).superRefine(check(checkGpsConfig));
const priorityField = () => optionalFormInt(UserLimits.priorityMin, UserLimits.priorityMax);
const capsField = () =>
  formInt(0, 2 ** 31 - 1).refine((caps) => (caps & ~USER_CAPS_MASK) === 0, { error: MessageKeys.capsInvalid });
/** A department id where absent is "unchanged" and 0 or blank is "no department". */
export const optionalDepartmentField = () =>
  z.preprocess((v) => (v === undefined ? undefined : v === null || v === '' ? 0 : v), formIdOrZero().optional());

/** One terminal user as lists and `Entitys/{id}` return it. Times are epoch milliseconds. */
export const userRowSchema = z.object({
  UserID: z.number().int(),
  E_ID: z.number().int(),
  OS_ID: z.number().int().nullable(),
  OSName: z.string().nullable(),
  UserName: z.string(),
  MobilePhone: z.string(),
  ICCID: z.string().nullable(),
  UType: z.number().int(),
  PriorityLevel: z.number().int(),
  ExpireAt: z.number().int().nullable(),
  IsLock: z.number().int(),
  Caps: z.number().int(),
  GPSConfig: z.string(),
  Remark: z.string(),
  CreatedAt: z.number().int(),
});
export type UserRow = z.infer<typeof userRowSchema>;

/**
 * `POST /api/UserInfo/Save` and `POST /api/UserInfo/UpdateUser` (form or JSON). UserID 0 or absent
 * creates; on an edit, absent fields stay as they are.
 */
export const userSaveSchema = z
  .object({
    UserID: formIdOrZero(),
    E_ID: optionalFormInt(1, 2 ** 31 - 1),
    UserName: formText(UserLimits.nameMax, 1).optional(),
    MobilePhone: phoneField().optional(),
    ICCID: userIccidField().optional(),
    OS_ID: optionalDepartmentField(),
    UType: optionalFormInt(0, 2 ** 31 - 1),
    PriorityLevel: priorityField(),
    ExpireAt: optionalFormDate(),
    Password: z.preprocess((v) => (v === '' || v === null ? undefined : v), terminalPasswordField().optional()),
    GPSConfig: gpsField().optional(),
    Caps: z.preprocess((v) => (v === '' ? undefined : v), capsField().optional()),
    Remark: optionalFormText(UserLimits.remarkMax),
  })
  .superRefine((v, ctx) => {
    if (v.UserID !== 0) return;
    for (const field of ['UserName', 'MobilePhone', 'Password'] as const) {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: MessageKeys.required });
    }
  });
export type UserSave = z.infer<typeof userSaveSchema>;

/** Fields every created user of a batch or a list shares. */
const sharedNewUserFields = {
  E_ID: optionalFormInt(1, 2 ** 31 - 1),
  OS_ID: optionalDepartmentField(),
  UType: optionalFormInt(0, 2 ** 31 - 1),
  PriorityLevel: priorityField(),
  ExpireAt: optionalFormDate(),
};

/**
 * `POST /api/UserInfo/BatchAdd`: `count` users named prefix+number with MobilePhone = number,
 * numbers from `start` (its width kept), one password for all. All or nothing.
 */
export const userBatchSchema = z
  .object({
    ...sharedNewUserFields,
    prefix: z.string({ error: MessageKeys.required }).superRefine(check(checkUserPrefix)),
    start: z
      .string({ error: MessageKeys.required })
      .trim()
      .regex(new RegExp(`^\\d{${UserLimits.phoneMin},${UserLimits.startMaxDigits}}$`), {
        error: MessageKeys.startInvalid,
      }),
    count: formInt(1, Number.MAX_SAFE_INTEGER).refine((n) => n <= Limits.batchCreateMax, {
      error: MessageKeys.batchTooMany,
    }),
    Password: terminalPasswordField(),
    ConfirmPassword: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.ConfirmPassword !== undefined && v.ConfirmPassword !== v.Password) {
      ctx.addIssue({ code: 'custom', path: ['ConfirmPassword'], message: MessageKeys.psdNotEqual });
    }
  });
export type UserBatch = z.infer<typeof userBatchSchema>;

export const userListRowSchema = z.object({
  UserName: formText(UserLimits.nameMax, 1),
  MobilePhone: phoneField(),
  ICCID: userIccidField().optional(),
  Password: z.preprocess((v) => (v === '' || v === null ? undefined : v), terminalPasswordField().optional()),
});
export type UserListRow = z.infer<typeof userListRowSchema>;

/**
 * `POST /api/UserInfo/ListAdd`: up to 20 typed rows (JSON, or `rows` as JSON text in a form).
 * A row without a Password takes the shared `Password`. All or nothing.
 */
export const userListSchema = z
  .object({
    ...sharedNewUserFields,
    Password: z.preprocess((v) => (v === '' || v === null ? undefined : v), terminalPasswordField().optional()),
    rows: formJsonArray(userListRowSchema, Limits.listCreateMax, MessageKeys.listTooMany),
  })
  .superRefine((v, ctx) => {
    if (v.Password !== undefined) return;
    v.rows.forEach((row, i) => {
      if (row.Password === undefined) {
        ctx.addIssue({ code: 'custom', path: ['rows', i, 'Password'], message: MessageKeys.required });
      }
    });
  });
export type UserList = z.infer<typeof userListSchema>;

/** What a batch or list creation returns: the users made, in order. */
export const createdUsersSchema = z.object({
  created: z.number().int(),
  users: z.array(z.object({ UserID: z.number().int(), UserName: z.string(), MobilePhone: z.string() })),
});
export type CreatedUsers = z.infer<typeof createdUsersSchema>;

/** `POST /api/UserInfo/FreezeUser`: isLock true freezes (and ends the terminal's sessions), false unfreezes. */
export const freezeUserSchema = z.object({ MobilePhone: phoneField(), isLock: formBool() });

/** `POST /api/UserInfo/UCapsSwitch`: `cap` is the user's whole new capability mask (bits of UserCaps). */
export const capsSwitchSchema = z.object({ phone: phoneField(), cap: capsField() });

/** `POST /api/UserInfo/SaveLocationConfig`: the GPS parameter of one user. */
export const userLocationConfigSchema = z.object({
  uid: formInt(1, 2 ** 31 - 1),
  phoneNumber: phoneField().optional(),
  scValue: gpsField(),
});

/**
 * `POST /api/UserInfo/BChangeUser`: for the users `uids` (comma list or array), set the priority
 * (`priValue`, 0-7) and/or move them to a department (`mValue`, 0 = none). Blank leaves it as is.
 */
export const batchChangeUsersSchema = z
  .object({
    uids: idList(UserLimits.batchChangeMax, MessageKeys.required),
    priValue: priorityField(),
    mValue: optionalDepartmentField(),
  })
  .superRefine((v, ctx) => {
    if (v.priValue === undefined && v.mValue === undefined) {
      ctx.addIssue({ code: 'custom', path: ['priValue'], message: MessageKeys.required });
    }
  });

/** `GET /api/UserInfo/Users`: light user list of one enterprise (pickers), or one user. */
export const usersQuerySchema = z.object({
  eID: optionalFormInt(1, 2 ** 31 - 1),
  /** The same as eID, as the spec's getUserList(E_ID, E_Code) names it. */
  E_ID: optionalFormInt(1, 2 ** 31 - 1),
  /** The enterprise by its company code (case-insensitive); with eID or E_ID both must name it. */
  E_Code: optionalFormText(64),
  /** Users whose name contains this text (case-insensitive): queryRequest(name, E_ID). */
  name: optionalFormText(UserLimits.nameMax),
  userID: optionalFormInt(1, 2 ** 31 - 1),
  OS_ID: optionalFormInt(0, 2 ** 31 - 1),
  pageIndex: optionalFormInt(0, 1_000_000).default(0),
  pageSize: optionalFormInt(1, Limits.maxPageSize).default(Limits.maxPageSize),
});

export const userBriefSchema = z.object({
  UserID: z.number().int(),
  E_ID: z.number().int(),
  OS_ID: z.number().int().nullable(),
  UserName: z.string(),
  MobilePhone: z.string(),
  UType: z.number().int(),
  PriorityLevel: z.number().int(),
  IsLock: z.number().int(),
});
export type UserBrief = z.infer<typeof userBriefSchema>;

/** `GET /api/UserInfo/GetMyType`: user types of the working enterprise; ID 0 is the built-in default. */
export const userTypeSchema = z.object({ ID: z.number().int(), Name: z.string(), Option: z.string() });
export type UserType = z.infer<typeof userTypeSchema>;
