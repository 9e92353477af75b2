import {
  MessageKeys,
  SafetyLimits,
  safetySettingsSaveSchema,
  type FieldError,
  type SafetySettingRow,
  type SafetySettingsSave,
  type SafetyTargetKind,
} from '@intercom/contract';
import { contractErrors } from '../../shared/form/contractErrors';

/** The edit form's values: whom the settings apply to, and the four numbers. */
export interface SafetyValues {
  Scope: SafetyTargetKind;
  UserIds: number[];
  DepartmentIds: number[];
  CheckInMinutes: number | null;
  GraceMinutes: number | null;
  NoMovementMinutes: number | null;
  NoMovementMeters: number | null;
}

export const NEW_SAFETY: Partial<SafetyValues> = {
  Scope: 'department',
  UserIds: [],
  DepartmentIds: [],
  CheckInMinutes: 60,
  GraceMinutes: SafetyLimits.graceDefault,
  NoMovementMinutes: 0,
  NoMovementMeters: SafetyLimits.noMovementMetersDefault,
};

/** `user:12` -> `{ kind, id }`, or undefined for anything else. */
export function parseSafetyKey(text: string | null): { kind: SafetyTargetKind; id: number } | undefined {
  const match = /^(user|department|enterprise):([1-9][0-9]{0,9})$/.exec(text ?? '');
  return match ? { kind: match[1] as SafetyTargetKind, id: Number(match[2]) } : undefined;
}

export function toFormValues(row: SafetySettingRow): Partial<SafetyValues> {
  return {
    Scope: row.TargetKind,
    UserIds: row.TargetKind === 'user' ? [row.TargetID] : [],
    DepartmentIds: row.TargetKind === 'department' ? [row.TargetID] : [],
    CheckInMinutes: row.CheckInMinutes,
    GraceMinutes: row.GraceMinutes,
    NoMovementMinutes: row.NoMovementMinutes,
    NoMovementMeters: row.NoMovementMeters,
  };
}

/** A blank number goes as NaN, so the contract says "must be a number" under its field. */
const numberOf = (value: number | null | undefined): number => value ?? Number.NaN;

/** The Save body: only the chosen scope's targets; the enterprise is the edited row's or the working one. */
export function toSaveBody(values: SafetyValues, E_ID: number | undefined): SafetySettingsSave {
  return {
    ...(E_ID ? { E_ID } : {}),
    ...(values.Scope === 'user' ? { UserIds: values.UserIds ?? [] } : {}),
    ...(values.Scope === 'department' ? { DepartmentIds: values.DepartmentIds ?? [] } : {}),
    CheckInMinutes: numberOf(values.CheckInMinutes),
    GraceMinutes: numberOf(values.GraceMinutes),
    NoMovementMinutes: numberOf(values.NoMovementMinutes),
    NoMovementMeters: numberOf(values.NoMovementMeters),
  };
}

/**
 * The contract's checks of the Save body, and one of the form's own: users or departments chosen
 * as the scope need at least one (none would silently mean the whole enterprise).
 */
export function validateSafety(values: SafetyValues, E_ID: number | undefined): FieldError[] {
  const errors = contractErrors(safetySettingsSaveSchema, toSaveBody(values, E_ID));
  if (values.Scope === 'user' && (values.UserIds ?? []).length === 0)
    errors.push({ field: 'UserIds', key: MessageKeys.required });
  if (values.Scope === 'department' && (values.DepartmentIds ?? []).length === 0)
    errors.push({ field: 'DepartmentIds', key: MessageKeys.required });
  return errors;
}
