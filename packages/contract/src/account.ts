import { z } from 'zod';
import { roleSchema } from './auth.js';
import { formBool, formId, formIdOrZero, formText, optionalFormInt } from './formFields.js';
import { MessageKeys } from './messages.js';
import { checkNewPassword } from './validators.js';

export const AccountLimits = { loginMax: 64, nameMax: 64, mailMax: 128 } as const;

/** Mail of a console account: empty, or one address. */
export function checkMail(value: string): string | null {
  return value === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : MessageKeys.mailInvalid;
}

const mailField = () =>
  formText(AccountLimits.mailMax).superRefine((v, ctx) => {
    const key = checkMail(v);
    if (key) ctx.addIssue({ code: 'custom', message: key });
  });

/** A new console password: the change-password rule (6-16 characters, 3 of 4 classes). */
const passwordField = () =>
  z.string({ error: MessageKeys.required }).superRefine((v, ctx) => {
    const key = checkNewPassword(v);
    if (key) ctx.addIssue({ code: 'custom', message: key });
  });

/** One console account (never its password hash). */
export const consoleAccountRowSchema = z.object({
  A_ID: z.number().int(),
  E_ID: z.number().int(),
  LoginName: z.string(),
  Name: z.string(),
  Mail: z.string(),
  Role: z.string(),
  Disabled: z.number().int(),
  CreatedAt: z.number().int(),
});
export type ConsoleAccountRow = z.infer<typeof consoleAccountRowSchema>;

/**
 * `POST /api/Account/Save` (admin): A_ID 0 or absent creates an account in E_ID (default: the
 * working enterprise) and needs LoginName and Password. Absent fields of an edit stay as they are;
 * a Password on an edit works as ResetPassword (the account's sessions end).
 */
export const accountSaveSchema = z
  .object({
    A_ID: formIdOrZero(),
    E_ID: optionalFormInt(1, 2 ** 31 - 1),
    LoginName: formText(AccountLimits.loginMax, 1).optional(),
    Name: formText(AccountLimits.nameMax).optional(),
    Mail: mailField().optional(),
    Role: roleSchema.optional(),
    Password: z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordField().optional()),
  })
  .superRefine((v, ctx) => {
    if (v.A_ID !== 0) return;
    for (const field of ['LoginName', 'Password'] as const) {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: MessageKeys.required });
    }
  });
export type AccountSave = z.infer<typeof accountSaveSchema>;

/** `POST /api/Account/Disable` (admin): Disabled true ends every session of the account. */
export const accountDisableSchema = z.object({ A_ID: formId(), Disabled: formBool() });

/** `POST /api/Account/ResetPassword` (admin): sets a new password and ends the account's sessions. */
export const accountResetPasswordSchema = z.object({ A_ID: formId(), Password: passwordField() });

/** `GET /api/Account/Profile` and `POST /api/Account/SaveProfile` (any role): the own name and mail. */
export const profileSchema = consoleAccountRowSchema.omit({ Disabled: true, CreatedAt: true });
export type Profile = z.infer<typeof profileSchema>;

export const profileSaveSchema = z.object({
  Name: formText(AccountLimits.nameMax),
  Mail: mailField(),
});
