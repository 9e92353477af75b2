import { z } from 'zod';
import { formIdOrZero, formJsonArray, formText, optionalFormInt, optionalFormText } from './formFields.js';
import { MessageKeys } from './messages.js';
import { checkIccid, iccidField, normaliseIccid, optionalDepartmentField, phoneField, UserLimits } from './user.js';

/** Limits of the SIM inventory and its mapping calls (docs/api.md, "Devices and SIM cards"). */
export const DeviceLimits = {
  codeMax: 64,
  nickNameMax: 64,
  remarkMax: 256,
  /** ImportICCID: the body is refused whole beyond these. */
  importMaxBytes: 1024 * 1024,
  importMaxLines: 50_000,
  /** ImportICCID: at most this many duplicate and invalid lines are listed (the counts are exact). */
  importReportMax: 1000,
  /** FastMapICCID and NoneSeriesMap: items per call. */
  mapMax: 1000,
} as const;

/** One device / SIM card of the inventory, with the user it is mapped to (SPEC.md section 3). */
export const deviceRowSchema = z.object({
  D_ID: z.number().int(),
  E_ID: z.number().int(),
  DeviceCode: z.string(),
  ICCID: z.string(),
  NickName: z.string(),
  Priority: z.number().int(),
  OSID: z.number().int().nullable(),
  OSName: z.string().nullable(),
  UType: z.number().int(),
  Remark: z.string(),
  UserID: z.number().int().nullable(),
  UserName: z.string().nullable(),
  MobilePhone: z.string().nullable(),
  CreatedAt: z.number().int(),
  /** The channels (CID) the device's user belongs to, read-only from the memberships (SPEC.md 3). */
  rids: z.array(z.number().int()),
  /** The names of those channels, in the same order. */
  ChannelNames: z.array(z.string()),
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;

/**
 * `POST /api/Device/Save`: D_ID 0 or absent creates an inventory record (ICCID required). Changing
 * the ICCID of a mapped device changes the user's ICCID too. Absent fields stay as they are.
 */
export const deviceSaveSchema = z
  .object({
    D_ID: formIdOrZero(),
    E_ID: optionalFormInt(1, 2 ** 31 - 1),
    DeviceCode: optionalFormText(DeviceLimits.codeMax),
    ICCID: iccidField().optional(),
    NickName: optionalFormText(DeviceLimits.nickNameMax),
    Priority: optionalFormInt(UserLimits.priorityMin, UserLimits.priorityMax),
    OSID: optionalDepartmentField(),
    UType: optionalFormInt(0, 2 ** 31 - 1),
    Remark: optionalFormText(DeviceLimits.remarkMax),
  })
  .superRefine((v, ctx) => {
    if (v.D_ID === 0 && v.ICCID === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ICCID'], message: MessageKeys.required });
    }
  });
export type DeviceSave = z.infer<typeof deviceSaveSchema>;

/** `POST /api/UserInfo/ImportICCID?fileName=&E_ID=` with a text/plain body, one ICCID per line. */
export const iccidImportQuerySchema = z.object({
  fileName: formText(255).default(''),
  E_ID: optionalFormInt(1, 2 ** 31 - 1),
});

export const iccidImportReportSchema = z.object({
  fileName: z.string(),
  /** Lines in the file, blank ones included. */
  lines: z.number().int(),
  blank: z.number().int(),
  accepted: z.number().int(),
  duplicateCount: z.number().int(),
  invalidCount: z.number().int(),
  /** `file`: repeats an earlier line (`firstLine`); `exists`: already in the inventory. */
  duplicates: z.array(
    z.object({
      line: z.number().int(),
      ICCID: z.string(),
      reason: z.enum(['file', 'exists']),
      firstLine: z.number().int().optional(),
    }),
  ),
  /** The trimmed line (cut to 64 characters) and the i18n key of what is wrong. */
  invalid: z.array(z.object({ line: z.number().int(), value: z.string(), key: z.string() })),
});
export type IccidImportReport = z.infer<typeof iccidImportReportSchema>;

/** `POST /api/UserInfo/MapICCID`: one ICCID onto one user, named by UserID or MobilePhone. */
export const mapIccidSchema = z
  .object({
    ICCID: iccidField(),
    UserID: optionalFormInt(1, 2 ** 31 - 1),
    MobilePhone: phoneField().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.UserID === undefined && v.MobilePhone === undefined) {
      ctx.addIssue({ code: 'custom', path: ['UserID'], message: MessageKeys.required });
    }
  });

/** A list of ICCIDs: a JSON array, or text with one per line or separated by commas. */
const iccidList = () =>
  z.preprocess(
    (value) =>
      typeof value === 'string' && !value.trim().startsWith('[') ? value.split(/[\s,;]+/).filter(Boolean) : value,
    formJsonArray(z.string(), DeviceLimits.mapMax),
  );

/**
 * `POST /api/UserInfo/FastMapICCID`: the ICCIDs, in order, onto the users without a SIM of the
 * enterprise (E_ID, default the working one) or of one department (OS_ID), oldest user first.
 */
export const fastMapSchema = z.object({
  ICCIDs: iccidList(),
  E_ID: optionalFormInt(1, 2 ** 31 - 1),
  OS_ID: optionalFormInt(1, 2 ** 31 - 1),
});

/** `POST /api/UserInfo/NoneSeriesMap`: explicit pairs (JSON array, or the array as JSON text in a form). */
export const noneSeriesMapSchema = z.object({
  pairs: formJsonArray(z.object({ ICCID: z.string(), MobilePhone: z.string() }), DeviceLimits.mapMax),
});

/** What the mapping calls return: the pairs now in place. */
export const mapResultSchema = z.object({
  pairs: z.array(
    z.object({ ICCID: z.string(), UserID: z.number().int(), UserName: z.string(), MobilePhone: z.string() }),
  ),
});
export type MapResult = z.infer<typeof mapResultSchema>;

/** `POST /api/UserInfo/RecoverDevice`: unbind the user's SIM and reset its terminal settings. */
export const recoverDeviceSchema = z.object({ MobilePhone: phoneField() });

/** Checks one ICCID of a list call; returns the normalised value or the i18n key of the failure. */
export function parseIccid(value: string): { iccid: string } | { key: string } {
  const key = checkIccid(value);
  return key ? { key } : { iccid: normaliseIccid(value) };
}
