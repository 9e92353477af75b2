import { z } from 'zod';
import { optionalFormBool } from './formFields.js';

/**
 * Bulk provisioning (issue 33): `GET /api/UserInfo/ImportTemplate` and `POST /api/UserInfo/Import`
 * (docs/api.md, "User import").
 */
export const UserImportLimits = {
  /** Data rows of one file (the header row not counted). */
  maxRows: 20_000,
  /** Bytes of the uploaded file. */
  maxBytes: 10 * 1024 * 1024,
  /**
   * Bytes an XLSX may expand to (all its zip entries together): more is refused as a zip bomb. The
   * default of the server's IMPORT_MAX_INFLATED_MB, which counts the bytes really inflated.
   */
  maxUncompressedBytes: 100 * 1024 * 1024,
  /** Rows written per transaction. */
  chunkRows: 1000,
  /** Separator of the Channels cell. */
  channelSeparator: ';',
  /** Separator of a department path (`Sales/North`). */
  departmentSeparator: '/',
} as const;

/** The columns of an import file, in the template's order. */
export const USER_IMPORT_COLUMNS = [
  'UserName',
  'MobilePhone',
  'Password',
  'ICCID',
  'Department',
  'UserType',
  'Channels',
  'Priority',
  'Remark',
] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number];

export const USER_IMPORT_LANGS = ['en', 'zh', 'es', 'ja'] as const;
export type UserImportLang = (typeof USER_IMPORT_LANGS)[number];

/** Header names per language; a header in any of them, or the field name itself, is accepted. */
export const userImportHeaders: Record<UserImportLang, Record<UserImportColumn, string>> = {
  en: {
    UserName: 'User name',
    MobilePhone: 'Mobile phone',
    Password: 'Password',
    ICCID: 'ICCID',
    Department: 'Department',
    UserType: 'User type',
    Channels: 'Channels',
    Priority: 'Priority',
    Remark: 'Remark',
  },
  zh: {
    UserName: '用户名',
    MobilePhone: '手机号',
    Password: '密码',
    ICCID: 'ICCID',
    Department: '部门',
    UserType: '用户类型',
    Channels: '频道',
    Priority: '优先级',
    Remark: '备注',
  },
  es: {
    UserName: 'Nombre de usuario',
    MobilePhone: 'Teléfono móvil',
    Password: 'Contraseña',
    ICCID: 'ICCID',
    Department: 'Departamento',
    UserType: 'Tipo de usuario',
    Channels: 'Canales',
    Priority: 'Prioridad',
    Remark: 'Observaciones',
  },
  ja: {
    UserName: 'ユーザー名',
    MobilePhone: '携帯電話番号',
    Password: 'パスワード',
    ICCID: 'ICCID',
    Department: '部署',
    UserType: 'ユーザータイプ',
    Channels: 'チャンネル',
    Priority: '優先度',
    Remark: '備考',
  },
};

/** Error codes of the import beyond the user form's (`user.*`, `validation.*`); i18n keys. */
export const UserImportKeys = {
  fileMissing: 'userImport.file_missing',
  fileType: 'userImport.file_type',
  fileTooLarge: 'userImport.file_too_large',
  fileUnreadable: 'userImport.file_unreadable',
  zipBomb: 'userImport.zip_bomb',
  tooManyRows: 'userImport.too_many_rows',
  empty: 'userImport.empty',
  headerMissing: 'userImport.header_missing',
  duplicateInFile: 'userImport.duplicate_in_file',
  departmentUnknown: 'userImport.department_unknown',
  channelUnknown: 'userImport.channel_unknown',
  userTypeUnknown: 'userImport.user_type_unknown',
  quota: 'userImport.quota',
  /** Another import of the enterprise, or too many on the server, is running (4029, HTTP 429). */
  busy: 'userImport.busy',
  /** Reading the file needed more memory than an import may use. */
  fileTooComplex: 'userImport.file_too_complex',
  /** A phone the import may not use, without saying why (it belongs to another enterprise). */
  cannotImport: 'userImport.cannot_import',
} as const;

/** System-log action of an import (one row per import, Summary: the counts). */
export const UserImportLogAction = 'user_import';

export const userImportTemplateQuerySchema = z.object({
  format: z.enum(['csv', 'xlsx'], { error: 'validation.invalid' }).default('csv'),
  lang: z.enum(USER_IMPORT_LANGS, { error: 'validation.invalid' }).default('en'),
});

export const userImportQuerySchema = z.object({
  dryRun: optionalFormBool().default(false),
  skipInvalid: optionalFormBool().default(false),
  createDepartments: optionalFormBool().default(false),
  /** Language of the error messages (default: the Accept-Language header, else en). */
  lang: z.enum(USER_IMPORT_LANGS, { error: 'validation.invalid' }).optional(),
  /** Chosen by the client: `GET /api/UserInfo/ImportProgress` tells how far this import is. */
  importId: importIdSchema().optional(),
});
export type UserImportQuery = z.infer<typeof userImportQuerySchema>;

function importIdSchema() {
  return z.string({ error: 'validation.invalid' }).regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'validation.invalid' });
}

/**
 * Stages of an import as `ImportProgress` tells them: `pending` (nothing known of the id yet: the
 * file is still on its way), `check` (reading and validating), `hash` (new passwords), `write`
 * (rows written), then `done` or `failed`. `done` of `total` counts the stage's work.
 */
export const USER_IMPORT_PHASES = ['pending', 'check', 'hash', 'write', 'done', 'failed'] as const;
export type UserImportPhase = (typeof USER_IMPORT_PHASES)[number];

export const userImportProgressQuerySchema = z.object({ importId: importIdSchema() });

export const userImportProgressSchema = z.object({
  phase: z.enum(USER_IMPORT_PHASES),
  done: z.number().int(),
  total: z.number().int(),
});
export type UserImportProgress = z.infer<typeof userImportProgressSchema>;

export const userImportErrorSchema = z.object({
  /** Line of the file (the header is row 1, the first data row 2); 0 for the whole file. */
  row: z.number().int(),
  /** Column (a field name of USER_IMPORT_COLUMNS), or `file`. */
  field: z.string(),
  /** i18n key. */
  code: z.string(),
  /** The code in the request's language. */
  message: z.string(),
});
export type UserImportError = z.infer<typeof userImportErrorSchema>;

/** Rows of the file a dry run sends back for the preview (the first ones, in file order). */
export const USER_IMPORT_PREVIEW_ROWS = 100;

/** One row of the preview: its line in the file and its cells by column (a Password cell masked). */
export const userImportPreviewRowSchema = z.object({
  row: z.number().int(),
  values: z.partialRecord(z.enum(USER_IMPORT_COLUMNS), z.string()),
});
export type UserImportPreviewRow = z.infer<typeof userImportPreviewRowSchema>;

export const userImportReportSchema = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /**
   * Known users whose Password cell is set. A dry run never compares passwords: it counts every known
   * user with a Password cell ("password will be set") as an update. An import compares them and
   * counts only the passwords it changed.
   */
  passwordsSet: z.number().int(),
  skipped: z.number().int(),
  /** Departments the import created (or would create on a dry run). */
  departmentsCreated: z.number().int(),
  /** Whether anything was written (false on a dry run and when an invalid row stopped the import). */
  written: z.boolean(),
  errors: z.array(userImportErrorSchema),
  /**
   * `MobilePhone,Password` of the users created with a generated password (their Password cell was
   * empty), as CSV text; null when there are none. Returned once, never stored or logged.
   */
  PasswordsCsv: z.string().nullable(),
  /**
   * Dry run only: the first USER_IMPORT_PREVIEW_ROWS rows of the file as read, so the check can show
   * them with the errors marked per cell. A non-empty Password cell is sent as `********`.
   */
  preview: z.array(userImportPreviewRowSchema).optional(),
});
export type UserImportReport = z.infer<typeof userImportReportSchema>;
