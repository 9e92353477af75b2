import { Limits } from './limits.js';
import { MessageKeys } from './messages.js';

/** Counts characters as a person does (code points), so a Chinese name of 20 characters is 20. */
export function charLength(value: string): number {
  return [...value].length;
}

/** Character classes present in a password: digits, uppercase, lowercase, other. */
export function passwordClasses(password: string): number {
  let classes = 0;
  if (/\d/.test(password)) classes++;
  if (/[A-Z]/.test(password)) classes++;
  if (/[a-z]/.test(password)) classes++;
  if (/[^0-9A-Za-z]/.test(password)) classes++;
  return classes;
}

/**
 * The profile change-password rule of SPEC.md section 5: 6-16 characters with at least 3 of the
 * 4 classes. Returns the i18n key of the failure, or null when the password is acceptable.
 */
export function checkNewPassword(password: string): string | null {
  const length = charLength(password);
  if (length < Limits.passwordMin || length > Limits.passwordMax) return MessageKeys.lcpsdNotCorrect;
  if (/\s/.test(password)) return MessageKeys.lcpsdNotCorrect;
  if (passwordClasses(password) < 3) return MessageKeys.lcpsdNotCorrect;
  return null;
}

export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** All change-password rules at once; field names are those of the console form (SPEC.md 3: LPsd, Psd, CPsd). */
export function checkChangePassword(input: ChangePasswordInput): { field: string; key: string }[] {
  const errors: { field: string; key: string }[] = [];
  if (input.oldPassword.length === 0) errors.push({ field: 'LPsd', key: MessageKeys.lpsdNotEmpty });
  const newKey = checkNewPassword(input.newPassword);
  if (newKey) errors.push({ field: 'Psd', key: newKey });
  if (input.newPassword !== input.confirmPassword) errors.push({ field: 'CPsd', key: MessageKeys.psdNotEqual });
  return errors;
}

/** Password strength 0-4 for the batch-account meter: one point per class, one for length >= 10. */
export function passwordStrength(password: string): number {
  if (password.length === 0) return 0;
  const score = passwordClasses(password) + (password.length >= 10 ? 1 : 0);
  return Math.min(4, Math.max(1, score - 1));
}

/** Login account names and company codes: trimmed, not empty, at most 64 characters. */
export function normaliseLoginName(value: string): string {
  return value.trim();
}
