import { MessageKeys, SafetyLimits } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { NEW_SAFETY, parseSafetyKey, toSaveBody, validateSafety, type SafetyValues } from './safetyForm';

const values = (change: Partial<SafetyValues>): SafetyValues => ({ ...(NEW_SAFETY as SafetyValues), ...change });

describe('safety settings form', () => {
  it('sends only the chosen scope’s targets, and no targets for the whole enterprise', () => {
    const form = values({ Scope: 'department', DepartmentIds: [4], UserIds: [9] });
    expect(toSaveBody(form, 7)).toEqual({
      E_ID: 7,
      DepartmentIds: [4],
      CheckInMinutes: 60,
      GraceMinutes: SafetyLimits.graceDefault,
      NoMovementMinutes: 0,
      NoMovementMeters: 10,
    });
    expect(toSaveBody({ ...form, Scope: 'user' }, 7)).toMatchObject({ UserIds: [9] });
    expect(toSaveBody({ ...form, Scope: 'enterprise' }, 7)).not.toHaveProperty('UserIds');
    expect(toSaveBody({ ...form, Scope: 'enterprise' }, 7)).not.toHaveProperty('DepartmentIds');
  });

  it.each([
    [{ CheckInMinutes: 721 }, 'CheckInMinutes', MessageKeys.outOfRange],
    [{ CheckInMinutes: -1 }, 'CheckInMinutes', MessageKeys.outOfRange],
    [{ CheckInMinutes: null }, 'CheckInMinutes', MessageKeys.notNumber],
    [{ GraceMinutes: 0 }, 'GraceMinutes', MessageKeys.outOfRange],
    [{ GraceMinutes: 61 }, 'GraceMinutes', MessageKeys.outOfRange],
    [{ NoMovementMinutes: 721 }, 'NoMovementMinutes', MessageKeys.outOfRange],
    [{ NoMovementMeters: 4 }, 'NoMovementMeters', MessageKeys.outOfRange],
    [{ NoMovementMeters: 501 }, 'NoMovementMeters', MessageKeys.outOfRange],
    [{ Scope: 'department' as const, DepartmentIds: [] }, 'DepartmentIds', MessageKeys.required],
    [{ Scope: 'user' as const, UserIds: [] }, 'UserIds', MessageKeys.required],
  ])('refuses %j under %s', (change, field, key) => {
    const form = values({ DepartmentIds: [4], UserIds: [9], ...change });
    expect(validateSafety(form, 7)).toEqual([{ field, key }]);
  });

  it('accepts the limits and a whole-enterprise setting', () => {
    const edges = { CheckInMinutes: 720, GraceMinutes: 1, NoMovementMinutes: 0, NoMovementMeters: 500 };
    expect(validateSafety(values({ Scope: 'enterprise', ...edges }), 7)).toEqual([]);
  });

  it('reads row keys and nothing else', () => {
    expect(parseSafetyKey('department:12')).toEqual({ kind: 'department', id: 12 });
    for (const bad of [null, '', 'user:0', 'group:3', 'user:1.5', 'user:12x'])
      expect(parseSafetyKey(bad)).toBeUndefined();
  });
});
