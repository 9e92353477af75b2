import { SafetyLimits, type SafetySettings } from '@intercom/contract';

/** Who a settings row is for; `enterprise` rows have TargetID = E_ID. */
export type SafetyTargetKind = 'user' | 'department' | 'enterprise';

export interface SafetyValues {
  CheckInMinutes: number;
  GraceMinutes: number;
  NoMovementMinutes: number;
  NoMovementMeters: number;
}

export interface SafetyRule extends SafetyValues {
  TargetKind: string;
  TargetID: number;
}

/** One enterprise's rules and its department tree: what resolving a user's settings needs. */
export interface EnterpriseRules {
  E_ID: number;
  rules: readonly SafetyRule[];
  /** Department → parent department (0 or absent at the top). */
  parents: ReadonlyMap<number, number>;
}

export const SAFETY_OFF: SafetyValues = {
  CheckInMinutes: 0,
  GraceMinutes: SafetyLimits.graceDefault,
  NoMovementMinutes: 0,
  NoMovementMeters: SafetyLimits.noMovementMetersDefault,
};

const valuesOf = (rule: SafetyRule): SafetyValues => ({
  CheckInMinutes: rule.CheckInMinutes,
  GraceMinutes: rule.GraceMinutes,
  NoMovementMinutes: rule.NoMovementMinutes,
  NoMovementMeters: rule.NoMovementMeters,
});

/**
 * The settings in force for a user: the user's own row, else the nearest department's on the way
 * up from the user's department, else the enterprise's, else every check off. A department tree
 * with a cycle (never written by the API) stops after as many steps as there are departments.
 */
export function resolveSafety(
  enterprise: EnterpriseRules,
  user: { U_ID: number; OS_ID: number | null },
): SafetySettings {
  const index = indexOf(enterprise);
  const find = (kind: SafetyTargetKind, id: number) => index.get(kind)?.get(id);
  const own = find('user', user.U_ID);
  if (own) return { U_ID: user.U_ID, ...valuesOf(own), Source: 'user' };
  let department = user.OS_ID ?? 0;
  for (let steps = 0; department > 0 && steps <= enterprise.parents.size; steps++) {
    const rule = find('department', department);
    if (rule) return { U_ID: user.U_ID, ...valuesOf(rule), Source: 'department' };
    department = enterprise.parents.get(department) ?? 0;
  }
  const whole = find('enterprise', enterprise.E_ID);
  if (whole) return { U_ID: user.U_ID, ...valuesOf(whole), Source: 'enterprise' };
  return { U_ID: user.U_ID, ...SAFETY_OFF, Source: 'none' };
}

/** Rules by kind and target, made once per EnterpriseRules read: the watch resolves every member from one. */
const indexes = new WeakMap<EnterpriseRules, Map<string, Map<number, SafetyRule>>>();

function indexOf(enterprise: EnterpriseRules): Map<string, Map<number, SafetyRule>> {
  let index = indexes.get(enterprise);
  if (index) return index;
  index = new Map();
  for (const rule of enterprise.rules) {
    let byTarget = index.get(rule.TargetKind);
    if (!byTarget) index.set(rule.TargetKind, (byTarget = new Map<number, SafetyRule>()));
    // The first row of a target wins, as a search from the start would find it.
    if (!byTarget.has(rule.TargetID)) byTarget.set(rule.TargetID, rule);
  }
  indexes.set(enterprise, index);
  return index;
}
